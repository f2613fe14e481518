// The publish routes without the gate: seats, uploads refused before anything is stored, the
// submission and its queued gate job, and the admin's review, promotion, rejection and rollback
// over versions whose verdict the test records as the gate would.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../src/bundle/buildBundle.js';
import { recordVerdict } from '../src/publish/submissions.js';
import { addSeat, createSource, type Source } from '../src/store/integrations.js';
import { createToken, createUser } from '../src/store/users.js';
import { FIXTURES, startTestHost, type TestHost } from './_host.js';

const scratch = mkdtempSync(join(tmpdir(), 'platform-versions-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A gzipped tar of `files` (path -> content), as `platform publish` uploads. */
async function pack(files: Record<string, string>): Promise<Buffer> {
  const dir = mkdtempSync(join(scratch, 'project-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const chunks: Buffer[] = [];
  const stream = tar.c({ gzip: true, cwd: dir, portable: true }, Object.keys(files));
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const project = (slug: string, extra: Record<string, string> = {}) => ({
  'platform.json': JSON.stringify({ integrations: [{ slug, entry: `src/${slug}/integration.ts` }] }),
  'package.json': JSON.stringify({ name: slug, private: true }),
  'package-lock.json': JSON.stringify({ name: slug, lockfileVersion: 3, packages: {} }),
  [`src/${slug}/integration.ts`]: 'export default {};\n',
  ...extra,
});

describe('publish routes', () => {
  let host: TestHost;
  let prod: Source;
  let admin: { userId: string; token: string };

  const upload = (source: string, body: Buffer, token = host.token) =>
    host.app.request(`/api/platform/sources/${source}/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      body: new Uint8Array(body),
    });
  const count = async (table: string) =>
    Number((await host.db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);

  beforeAll(async () => {
    host = await startTestHost({
      projects: [],
      limits: { publishArchiveBytes: 64 * 1024, uploadsPerSeatPerMinute: 1000 },
    });
    prod = await createSource(host.db, { slug: 'acme', name: 'Acme', stage: 'production' });
    const dev = await createSource(host.db, { slug: 'acme-dev', name: 'Acme dev', stage: 'development' });
    await addSeat(host.db, prod.id, host.userId, 'publisher');
    await addSeat(host.db, dev.id, host.userId, 'viewer');
    const adminUser = await createUser(host.db, {
      email: 'admin@example.test',
      name: 'Admin',
      isPlatformAdmin: true,
    });
    admin = {
      userId: adminUser.id,
      token: (await createToken(host.db, { userId: adminUser.id, kind: 'token' })).token,
    };
  });
  afterAll(() => host?.close());

  it('lists the seats the user holds', async () => {
    const response = await host.call('/api/platform/sources');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: { sources: { slug: string; role: string; stage: string }[] };
    };
    expect(body.data.sources.map(({ slug, role, stage }) => [slug, role, stage])).toEqual([
      ['acme', 'publisher', 'production'],
      ['acme-dev', 'viewer', 'development'],
    ]);
  });

  it('refuses a viewer seat with forbidden and a hint listing every seat and role', async () => {
    const response = await upload('acme-dev', await pack(project('acme-notes')));
    expect(response.status).toBe(403);
    const { error } = (await response.json()) as { error: { code: string; hint: string } };
    expect(error.code).toBe('forbidden');
    expect(error.hint).toContain('acme (publisher)');
    expect(error.hint).toContain('acme-dev (viewer)');
    expect(error.hint).toContain('platform use');
  });

  it('limits uploads per seat a minute (429 rate_limited with Retry-After), storing nothing past it', async () => {
    const limited = await startTestHost({ projects: [], limits: { uploadsPerSeatPerMinute: 2 } });
    try {
      const source = await createSource(limited.db, { slug: 'acme', name: 'Acme', stage: 'production' });
      await addSeat(limited.db, source.id, limited.userId, 'publisher');
      const send = () =>
        limited.app.request('/api/platform/sources/acme/versions', {
          method: 'POST',
          headers: { authorization: `Bearer ${limited.token}`, 'content-type': 'application/gzip' },
          body: Buffer.from('not even an archive'),
        });
      expect((await send()).status).toBe(400);
      expect((await send()).status).toBe(400);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    } finally {
      await limited.close();
    }
  });

  it('refuses a tarball carrying local secrets, naming the file, and stores nothing', async () => {
    for (const file of ['.env.local', '.platform/local-secrets.json', 'nested/.env']) {
      const response = await upload('acme', await pack(project('acme-notes', { [file]: 'TOKEN=x\n' })));
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_archive');
      expect(error.message).toContain(file);
    }
    expect(await count('submissions')).toBe(0);
    expect(await count('versions')).toBe(0);
  });

  it('refuses an oversize upload with payload_too_large', async () => {
    const response = await upload('acme', Buffer.alloc(128 * 1024, 1));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('refuses an unknown source as one without a seat (forbidden, listing the seats)', async () => {
    const response = await upload('nope', await pack(project('acme-notes')));
    expect(response.status).toBe(403);
    const { error } = (await response.json()) as { error: { code: string; message: string; hint: string } };
    expect(error).toMatchObject({ code: 'forbidden', message: 'You hold no seat on a source "nope".' });
    expect(error.hint).toContain('acme (publisher)');
  });

  it('stores a submission with a submitted version per integration and queues its gate job', async () => {
    // What the instance's worker would see when told: the gate jobs committed by then.
    const told: Promise<number>[] = [];
    const stop = host.services.jobsQueued.listen(() =>
      told.push(
        host.db
          .query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'gate'`)
          .then((result) => result.rows[0]!.n),
      ),
    );
    const response = await upload('acme', await pack(project('acme-notes')));
    stop();
    expect(response.status).toBe(202);
    expect(await Promise.all(told)).toEqual([1]);
    const { data } = (await response.json()) as {
      data: { submission: { id: string }; versions: { slug: string; number: number; status: string }[] };
    };
    expect(data.versions).toEqual([
      expect.objectContaining({ slug: 'acme-notes', number: 1, status: 'submitted' }),
    ]);
    const jobs = await host.db.query(`SELECT kind, payload FROM jobs WHERE kind = 'gate'`);
    expect(jobs.rows).toEqual([{ kind: 'gate', payload: { target: data.submission.id } }]);
    const listed = (await (await host.call('/api/platform/sources/acme/versions')).json()) as {
      data: { versions: { status: string; checks: { name: string; status: string }[] }[] };
    };
    expect(listed.data.versions[0]?.status).toBe('submitted');
    expect(listed.data.versions[0]?.checks.map((check) => check.status)).toEqual(Array(8).fill('pending'));
  });

  it('refuses a slug another source owns with slug_taken and stores nothing', async () => {
    const other = await createSource(host.db, { slug: 'rival', name: 'Rival', stage: 'development' });
    await addSeat(host.db, other.id, host.userId, 'owner');
    const before = await count('submissions');
    const response = await upload('rival', await pack(project('acme-notes')));
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as { error: { code: string; hint: string } };
    expect(error.code).toBe('slug_taken');
    expect(error.hint).toContain('"acme"');
    expect(await count('submissions')).toBe(before);
  });

  it("answers a source the user holds no seat on as one that does not exist, and names no other tenant's source", async () => {
    const hidden = await createSource(host.db, { slug: 'hidden-co', name: 'Hidden', stage: 'production' });
    for (const response of [
      await upload('hidden-co', await pack(project('acme-notes'))),
      await host.call('/api/platform/sources/hidden-co/versions'),
    ]) {
      expect(response.status).toBe(403);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error).toMatchObject({
        code: 'forbidden',
        message: 'You hold no seat on a source "hidden-co".',
      });
    }
    const unknown = await host.call('/api/platform/sources/no-such-source/versions');
    expect(unknown.status).toBe(403);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      'You hold no seat on a source "no-such-source".',
    );
    // A slug owned by a source this user holds no seat on: refused without naming that source.
    const owner = await createUser(host.db, { email: 'hidden-owner@example.test', name: 'Hidden owner' });
    await addSeat(host.db, hidden.id, owner.id, 'owner');
    const ownerToken = (await createToken(host.db, { userId: owner.id, kind: 'token' })).token;
    const claimed = await upload('hidden-co', await pack(project('hidden-notes')), ownerToken);
    expect(claimed.status).toBe(202);
    const taken = await upload('acme', await pack(project('hidden-notes')));
    expect(taken.status).toBe(409);
    const text = JSON.stringify(await taken.json());
    expect(text).toContain('slug_taken');
    expect(text).not.toContain('hidden-co');
  });

  it('reviews, promotes, rejects and rolls back gated versions', async () => {
    const bundle = await buildBundle(join(FIXTURES, 'notes', 'integration.ts'));
    const manifest = await host.services.runtime.describe({
      id: 'review-test',
      loadBundle: async () => bundle,
    });
    // Two submissions of test-notes; the gate's verdict recorded as runGateJob records it.
    const submit = async (egress: readonly string[]) => {
      const response = await upload('acme', await pack(project(manifest.slug)));
      const { data } = (await response.json()) as {
        data: { submission: { id: string }; versions: { id: string }[] };
      };
      const built: DefinitionManifest = { ...manifest, egress };
      await host.db.transaction((tx) =>
        recordVerdict(tx, {
          submissionId: data.submission.id,
          checks: [],
          findings: [],
          built: [{ slug: manifest.slug, manifest: built, bundle, listing: { name: 'Test Notes' } }],
          now: new Date(),
        }),
      );
      return data.versions[0]!.id;
    };
    const listingOf = async (id: string) =>
      (await host.db.query('SELECT listing FROM versions WHERE id = $1', [id])).rows[0]?.listing;
    const asAdmin = (path: string, json?: unknown) =>
      host.app.request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(json ?? {}),
      });

    const v1 = await submit(manifest.egress);
    // The gate's verdict stores the platform.json listing with the version.
    expect(await listingOf(v1)).toEqual({ name: 'Test Notes' });
    const first = (await (await host.call(`/api/platform/versions/${v1}`)).json()) as {
      data: {
        version: { status: string; live: boolean };
        review: { againstVersion: number | null; widens: boolean };
      };
    };
    expect(first.data.version).toMatchObject({ status: 'gated', live: false });
    expect(first.data.review.againstVersion).toBeNull();

    // Only a platform admin promotes.
    const refused = await host.call(`/api/platform/admin/versions/${v1}/promote`, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect((await asAdmin(`/api/platform/admin/versions/${v1}/promote`)).status).toBe(200);

    const v2 = await submit([...manifest.egress, 'https://api.widened.example']);
    const queue = (await (
      await host.app.request('/api/platform/admin/versions', {
        headers: { authorization: `Bearer ${admin.token}` },
      })
    ).json()) as {
      data: { versions: { id: string; review: { egress: { added: string[] }; widens: boolean } }[] };
    };
    const pending = queue.data.versions.find((version) => version.id === v2);
    expect(pending?.review.egress.added).toEqual(['https://api.widened.example']);
    expect(pending?.review.widens).toBe(true);

    // A version already live cannot be promoted again; nothing changes.
    const again = await asAdmin(`/api/platform/admin/versions/${v1}/promote`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string; hint: string } }).error.hint).toBeTruthy();

    expect((await asAdmin(`/api/platform/admin/versions/${v2}/promote`)).status).toBe(200);
    const live = async () =>
      (await host.db.query(`SELECT live_version_id FROM integrations WHERE slug = $1`, [manifest.slug]))
        .rows[0]!.live_version_id;
    expect(await live()).toBe(v2);

    const rolledBack = await asAdmin(`/api/platform/admin/integrations/${manifest.slug}/rollback`);
    expect(rolledBack.status).toBe(200);
    expect(await live()).toBe(v1);
    // Nothing earlier than v1 to go back to: refused, v1 stays live.
    expect((await asAdmin(`/api/platform/admin/integrations/${manifest.slug}/rollback`)).status).toBe(409);
    expect(await live()).toBe(v1);

    const v3 = await submit(manifest.egress);
    expect((await asAdmin(`/api/platform/admin/versions/${v3}/reject`, {})).status).toBe(400);
    expect(
      (await asAdmin(`/api/platform/admin/versions/${v3}/reject`, { reason: 'Scopes too wide.' })).status,
    ).toBe(200);
    const rejected = (await (await host.call(`/api/platform/versions/${v3}`)).json()) as {
      data: { version: { status: string }; decisionReason: string };
    };
    expect(rejected.data).toMatchObject({
      version: { status: 'rejected' },
      decisionReason: 'Scopes too wide.',
    });
    expect(await live()).toBe(v1);
  });

  it('reviews a gated version against the version live now, and refuses to promote one older than live', async () => {
    const bundle = await buildBundle(join(FIXTURES, 'notes', 'integration.ts'));
    const manifest = await host.services.runtime.describe({
      id: 'stale-review',
      loadBundle: async () => bundle,
    });
    const submit = async (egress: readonly string[]) => {
      const response = await upload('acme', await pack(project(manifest.slug)));
      const { data } = (await response.json()) as {
        data: { submission: { id: string }; versions: { id: string }[] };
      };
      await host.db.transaction((tx) =>
        recordVerdict(tx, {
          submissionId: data.submission.id,
          checks: [],
          findings: [],
          built: [{ slug: manifest.slug, manifest: { ...manifest, egress }, bundle, listing: {} }],
          now: new Date(),
        }),
      );
      return data.versions[0]!.id;
    };
    const asAdmin = (path: string) =>
      host.app.request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const reviewOf = async (id: string) =>
      (
        (await (await host.call(`/api/platform/versions/${id}`)).json()) as {
          data: { review: { againstVersion: number | null; egress: { added: string[] }; widens: boolean } };
        }
      ).data.review;
    const wide = [...manifest.egress, 'https://api.wide.example'];
    // Live: a version that already reaches the wide origin. A candidate with the same egress
    // widens nothing at gate time.
    const reaching = await submit(wide);
    expect((await asAdmin(`/api/platform/admin/versions/${reaching}/promote`)).status).toBe(200);
    const candidate = await submit(wide);
    expect((await reviewOf(candidate)).egress.added).toEqual([]);
    // A newer, narrower version goes live: the candidate now widens egress against it, and says so.
    const narrow = await submit(manifest.egress);
    expect((await asAdmin(`/api/platform/admin/versions/${narrow}/promote`)).status).toBe(200);
    const now = await reviewOf(candidate);
    expect(now.egress.added).toEqual(['https://api.wide.example']);
    expect(now.widens).toBe(true);
    // And it is older than the live version: promoting it is refused, nothing changes.
    const older = await asAdmin(`/api/platform/admin/versions/${candidate}/promote`);
    expect(older.status).toBe(409);
    const { error } = (await older.json()) as { error: { message: string; hint: string } };
    expect(error.message).toContain('older than the live');
    expect(error.hint).toContain('rollback');
    const { rows } = await host.db.query(`SELECT live_version_id FROM integrations WHERE slug = $1`, [
      manifest.slug,
    ]);
    expect(rows[0]!.live_version_id).toBe(narrow);
  });
});
