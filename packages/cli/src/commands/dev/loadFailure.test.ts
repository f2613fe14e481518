import { describe, expect, it } from 'vitest';
import { createStyle } from '../../cli/terminal.js';
import { describeLoadFailure, pageLoadFailure, renderLoadFailure } from './loadFailure.js';

const projectDir = '/work/project';
const plain = createStyle(false);
const keep = (text: string) => text;

describe('describeLoadFailure', () => {
  it('names the first project file of the stack, past the packages that threw', () => {
    const thrown = new Error('The definition is invalid.');
    thrown.stack = [
      'Error: The definition is invalid.',
      '    at defineIntegration (/work/project/node_modules/@platform/sdk/dist/index.js:10:5)',
      '    at /work/project/src/acme/integration.ts:4:16',
    ].join('\n');
    const failure = describeLoadFailure({ thrown, projectDir, redact: keep });
    expect(failure.file).toBe('src/acme/integration.ts');
    expect(failure.fix).toBe(
      'Fix the error in src/acme/integration.ts and save it: the harness loads harness.config.ts again, and the page returns by itself.',
    );
  });

  it("takes a syntax error's own location, and the config when nothing names a project file", () => {
    const syntax = Object.assign(new SyntaxError('Unexpected token'), {
      loc: { file: '/work/project/harness.config.ts', line: 3, column: 7 },
    });
    expect(describeLoadFailure({ thrown: syntax, projectDir, redact: keep })).toMatchObject({
      file: 'harness.config.ts:3:7',
      message: 'SyntaxError: Unexpected token',
    });
    expect(describeLoadFailure({ thrown: 'boom', projectDir, redact: keep }).file).toBe('harness.config.ts');
  });

  it('redacts the message and the findings with the rule it is given', () => {
    const failure = describeLoadFailure({
      thrown: new Error('live.baseUrl https://api.acme.com/v1?token=s3cret is unreachable'),
      projectDir,
      findings: [
        {
          id: 'definition.schema',
          severity: 'error',
          message: 'bad url https://x.io/?key=k',
          hint: 'Fix it.',
        },
      ],
      redact: (text) => text.replace(/\?\S*/g, '?...'),
    });
    expect(JSON.stringify(failure)).not.toMatch(/s3cret|key=k/);
    expect(failure.fix).toMatch(/^Fix the error listed in harness\.config\.ts/);
  });
});

describe('renderLoadFailure and pageLoadFailure', () => {
  const failure = describeLoadFailure({
    thrown: new Error('"acme notes" is not a valid harness slug'),
    projectDir,
    findings: [{ id: 'definition.schema', severity: 'error', message: 'slug: invalid', hint: 'Use a-z.' }],
    redact: keep,
  });

  it('prints the heading, message, file, findings and the fix in the terminal', () => {
    const text = renderLoadFailure(failure, plain);
    expect(text).toContain('harness.config.ts failed to load: "acme notes" is not a valid harness slug');
    expect(text).toContain('  in harness.config.ts');
    expect(text).toContain('error   definition.schema  slug: invalid');
    expect(text).toContain(failure.fix);
  });

  it('gives the page the same lines, findings as the terminal prints them', () => {
    const page = pageLoadFailure(failure);
    expect(page).toEqual({
      heading: 'harness.config.ts failed to load',
      file: 'harness.config.ts',
      message: '"acme notes" is not a valid harness slug',
      findings: ['error   definition.schema  slug: invalid\n        hint Use a-z.'],
      fix: failure.fix,
    });
    for (const line of page.findings) expect(renderLoadFailure(failure, plain)).toContain(line);
  });
});
