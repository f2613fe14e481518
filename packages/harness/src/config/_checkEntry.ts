import { parseEgressPattern } from '@platform/integration-schema';
import { parseFixtureRequest } from '@platform/sdk/testing';
import { checkFixtures } from './_checkFixtures.js';
import { checkSeeds } from './_checkSeeds.js';
import { checkWidget } from './_checkWidget.js';
import { harnessSlugProblem } from './_names.js';
import {
  checkBoolean,
  checkKeys,
  checkString,
  describeValue,
  fieldPath,
  isComponent,
  isRecord,
  type Report,
} from './_shape.js';
import { checkVariantRecord } from './_variants.js';

/** The keys of a `HarnessRegistryEntry`, in the spec's order. */
export const ENTRY_KEYS = [
  'slug',
  'name',
  'description',
  'widgets',
  'fixtures',
  'tile',
  'activationForm',
  'definition',
  'triggerMocks',
  'live',
  'oauth',
] as const;

const LIVE_KEYS = ['seeds', 'default', 'egress'] as const;
const OAUTH_KEYS = ['connected', 'setup'] as const;
const OAUTH_SETUP_KEYS = ['consoleUrl', 'consoleLabel', 'notes'] as const;
const TRIGGER_MOCK_KEYS = ['storage', 'secrets', 'fetchHandlers'] as const;
const FETCH_HANDLER_KEYS = ['match', 'respond'] as const;
// As in the fixtures check: the real egress origin is applied when the mock context is built.
const STAND_IN_ORIGIN = 'https://egress.invalid';

/** Checks one registry entry (already known to be an object), every field, reporting each problem. */
export function checkEntry(entry: Record<string, unknown>, report: Report): void {
  checkKeys(entry, ENTRY_KEYS, '', report);

  const slug = checkString(entry.slug, 'slug', report, {
    required: true,
    nonEmpty: true,
    example: '"acme-notes"',
  });
  const slugProblem = slug === undefined ? undefined : harnessSlugProblem(slug);
  if (slugProblem !== undefined) report('slug', slugProblem);
  checkString(entry.name, 'name', report, { required: true, nonEmpty: true, example: '"Acme Notes"' });
  checkString(entry.description, 'description', report, {
    required: true,
    example: '"Notes from Acme, synced nightly."',
  });

  checkWidgets(entry.widgets, report);
  if (entry.fixtures !== undefined) checkFixtures(entry.fixtures, 'fixtures', report);
  for (const key of ['tile', 'activationForm'] as const) {
    if (entry[key] !== undefined && !isComponent(entry[key])) {
      report(
        key,
        `must be a React component, not ${describeValue(entry[key])}; leave it out if there is none.`,
      );
    }
  }
  const hasDefinition = entry.definition !== undefined;
  if (hasDefinition) checkDefinition(entry.definition, report);
  if (entry.triggerMocks !== undefined) checkTriggerMocks(entry.triggerMocks, report);
  if (entry.live !== undefined) checkLive(entry.live, hasDefinition, report);
  if (entry.oauth !== undefined) checkOAuth(entry.oauth, report);
}

function checkWidgets(widgets: unknown, report: Report): void {
  if (!Array.isArray(widgets)) {
    report(
      'widgets',
      `${widgets === undefined ? 'is required' : `must be an array, not ${describeValue(widgets)}`}; list the widgets (an empty array is fine), or derive them with harnessWidgetsFromDefinition(definition).`,
    );
    return;
  }
  const seen = new Map<string, number>();
  for (const [index, widget] of widgets.entries()) {
    const id = checkWidget(widget, `widgets[${index}]`, report);
    if (id === undefined) continue;
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, index);
    } else {
      report(
        `widgets[${index}].id`,
        `duplicate widget id "${id}" (also widgets[${first}]); each widget needs its own id, it is its URL /<slug>/widgets/${id}.`,
      );
    }
  }
}

function checkDefinition(definition: unknown, report: Report): void {
  if (!isRecord(definition) || typeof definition.slug !== 'string') {
    report(
      'definition',
      `must be an integration definition, not ${describeValue(definition)}; pass asHarnessDefinition(definition) with the object defineIntegration() returned.`,
    );
  }
}

function checkTriggerMocks(value: unknown, report: Report): void {
  if (!isRecord(value)) {
    report(
      'triggerMocks',
      `must be an object { storage?, secrets?, fetchHandlers? }, not ${describeValue(value)}.`,
    );
    return;
  }
  checkKeys(value, TRIGGER_MOCK_KEYS, 'triggerMocks', report);
  if (value.storage !== undefined) {
    checkRecordOfRecords(
      value.storage,
      'triggerMocks.storage',
      ['account', 'user'],
      report,
      'storage key to value',
    );
  }
  if (value.secrets !== undefined) {
    checkRecordOfRecords(
      value.secrets,
      'triggerMocks.secrets',
      ['account'],
      report,
      'secret name to string',
      true,
    );
  }
  if (value.fetchHandlers === undefined) return;
  if (!Array.isArray(value.fetchHandlers)) {
    report(
      'triggerMocks.fetchHandlers',
      `must be an array of { match, respond }, not ${describeValue(value.fetchHandlers)}.`,
    );
    return;
  }
  for (const [index, handler] of value.fetchHandlers.entries()) {
    const at = `triggerMocks.fetchHandlers[${index}]`;
    if (!isRecord(handler)) {
      report(at, `must be { match, respond }, not ${describeValue(handler)}.`);
      continue;
    }
    checkKeys(handler, FETCH_HANDLER_KEYS, at, report);
    if (typeof handler.match !== 'string') {
      report(
        `${at}.match`,
        `must be a fixture request string such as "GET /v1/notes", not ${describeValue(handler.match)}.`,
      );
    } else {
      try {
        parseFixtureRequest(handler.match, { egress: [STAND_IN_ORIGIN], allowBareTarget: true });
      } catch (error) {
        report(`${at}.match`, (error as Error).message);
      }
    }
    if (typeof handler.respond !== 'function') {
      report(
        `${at}.respond`,
        `must be a function returning a Response, for example () => Response.json({}), not ${describeValue(handler.respond)}.`,
      );
    }
  }
}

function checkRecordOfRecords(
  value: unknown,
  field: string,
  keys: readonly string[],
  report: Report,
  what: string,
  stringValues = false,
): void {
  if (!isRecord(value)) {
    report(field, `must be an object with ${keys.join(' and/or ')}, not ${describeValue(value)}.`);
    return;
  }
  checkKeys(value, keys, field, report);
  for (const key of keys) {
    const map = value[key];
    if (map === undefined) continue;
    if (!isRecord(map)) {
      report(fieldPath(field, key), `must be an object of ${what}, not ${describeValue(map)}.`);
      continue;
    }
    if (!stringValues) continue;
    for (const [name, item] of Object.entries(map)) {
      if (typeof item !== 'string') {
        report(fieldPath(fieldPath(field, key), name), `must be a string, not ${describeValue(item)}.`);
      }
    }
  }
}

function checkLive(live: unknown, hasDefinition: boolean, report: Report): void {
  if (!isRecord(live)) {
    report('live', `must be an object { seeds?, default?, egress? }, not ${describeValue(live)}.`);
    return;
  }
  checkKeys(live, LIVE_KEYS, 'live', report);
  if (live.seeds !== undefined) checkSeeds(live.seeds, 'live.seeds', report);
  if (live.default !== undefined && live.default !== 'live') {
    report(
      'live.default',
      `must be "live" (open in live mode), not ${describeValue(live.default)}; leave it out to open in fixtures mode.`,
    );
  }
  if (live.egress === undefined) return;
  if (hasDefinition) {
    report(
      'live.egress',
      'must not be set when definition is set: the definition’s egress is the allowlist. Remove live.egress and declare the origins in the definition’s egress.',
    );
    return;
  }
  if (!Array.isArray(live.egress)) {
    report(
      'live.egress',
      `must be an array of origins such as "https://api.acme.com", not ${describeValue(live.egress)}.`,
    );
    return;
  }
  for (const [index, origin] of live.egress.entries()) {
    if (typeof origin !== 'string') {
      report(
        `live.egress[${index}]`,
        `must be an origin string such as "https://api.acme.com", not ${describeValue(origin)}.`,
      );
      continue;
    }
    const check = parseEgressPattern(origin);
    if (!check.ok) report(`live.egress[${index}]`, `${check.message}.`);
  }
}

function checkOAuth(oauth: unknown, report: Report): void {
  if (!isRecord(oauth)) {
    report('oauth', `must be an object { connected?, setup? }, not ${describeValue(oauth)}.`);
    return;
  }
  checkKeys(oauth, OAUTH_KEYS, 'oauth', report);
  if (oauth.connected !== undefined && typeof oauth.connected !== 'boolean') {
    checkVariantRecord(oauth.connected, 'oauth.connected', report, (value, at) =>
      checkBoolean(value, at, report),
    );
  }
  const setup = oauth.setup;
  if (setup === undefined) return;
  if (!isRecord(setup)) {
    report(
      'oauth.setup',
      `must be an object { consoleUrl?, consoleLabel?, notes? }, not ${describeValue(setup)}.`,
    );
    return;
  }
  checkKeys(setup, OAUTH_SETUP_KEYS, 'oauth.setup', report);
  const consoleUrl = checkString(setup.consoleUrl, 'oauth.setup.consoleUrl', report, {
    required: false,
    example: '"https://developer.acme.com/apps"',
  });
  if (consoleUrl !== undefined && !isHttpUrl(consoleUrl)) {
    report(
      'oauth.setup.consoleUrl',
      `"${consoleUrl}" is not an http(s) URL; write the full address, for example "https://developer.acme.com/apps".`,
    );
  }
  checkString(setup.consoleLabel, 'oauth.setup.consoleLabel', report, {
    required: false,
    example: '"Acme developer console"',
  });
  if (setup.notes !== undefined) {
    if (!Array.isArray(setup.notes)) {
      report(
        'oauth.setup.notes',
        `must be an array of strings (one note each), not ${describeValue(setup.notes)}.`,
      );
    } else {
      for (const [index, note] of setup.notes.entries()) {
        if (typeof note !== 'string')
          report(`oauth.setup.notes[${index}]`, `must be a string, not ${describeValue(note)}.`);
      }
    }
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
