import { checkSignatureScheme } from './checkSignatureScheme.js';
import { definitionSchemas } from './definitionShape.js';
import type { DefinitionProblem } from './IntegrationDefinitionError.js';
import { checkCron } from './rules/cron.js';
import { type EgressPattern, egressPatternCovers, parseEgressPattern } from './rules/egress.js';
import { isKebabCase, isSnakeCase, kebabCaseMessage, toSnakeCase } from './rules/naming.js';
import { checkStorageKey } from './rules/storageKey.js';
import type { WebhookSignatureScheme } from './webhookSignature.js';

type Problems = DefinitionProblem[];
type Dict = Record<string, unknown>;

const isDict = (value: unknown): value is Dict =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// Entries that are objects, with their real index: a null before them must not shift the paths.
const entries = (value: unknown): [number, Dict][] =>
  Array.isArray(value)
    ? value.flatMap((item: unknown, index) => (isDict(item) ? [[index, item] as [number, Dict]] : []))
    : [];

/**
 * The rules a shape cannot express: naming, cron, storage keys, egress, OAuth origins, signature
 * schemes, uniqueness and references. Reads the raw input defensively so that it can report
 * alongside shape errors; values of the wrong type are left to the shape check.
 */
export function checkDefinitionRules(input: Dict): Problems {
  const problems: Problems = [];
  if (typeof input.slug === 'string' && !isKebabCase(input.slug)) {
    problems.push({ path: 'slug', message: kebabCaseMessage('slug', input.slug) });
  }
  const widgetIds = checkWidgets(input, problems);
  const toolNames = checkTools(input, problems);
  checkWebhooks(input, problems);
  checkSchedules(input, problems);
  if (isDict(input.actions)) {
    for (const name of Object.keys(input.actions)) {
      if (!isKebabCase(name))
        problems.push({ path: `actions.${name}`, message: kebabCaseMessage('action name', name) });
    }
  }
  const egress = checkEgress(input, problems);
  checkOAuth(input, egress, problems);
  checkConnection(input, egress, problems);
  checkStorage(input, problems);
  if (isDict(input.proposes) && isDict(input.proposes.tools)) {
    for (const name of Object.keys(input.proposes.tools)) {
      if (!toolNames.has(name)) {
        problems.push({
          path: `proposes.tools.${name}`,
          message: `no tool named "${name}" is declared in tools; declare it or remove this entry`,
        });
      }
    }
  }
  if (isDict(input.layouts)) {
    for (const [size, layout] of Object.entries(input.layouts)) {
      if (!isDict(layout)) continue;
      for (const id of Object.keys(layout)) {
        if (!widgetIds.has(id)) {
          problems.push({
            path: `layouts.${size}.${id}`,
            message: `no widget with id "${id}" is declared in components.widgets; declare it or remove this entry`,
          });
        }
      }
    }
  }
  return problems;
}

/**
 * Reports each repeated id of one kind (one problem per repeat, naming both indexes) and answers
 * the set of ids seen. Also the host's rule for a manifest's lists (`readManifest` in the sdk).
 * @example checkUnique('action name', 'actions', [[0, 'a'], [1, 'a']], problems)
 */
export function checkUnique(
  kind: string,
  path: string,
  ids: readonly (readonly [number, unknown])[],
  problems: Problems,
): Set<string> {
  const seen = new Map<string, number>();
  ids.forEach(([index, id]) => {
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else {
      problems.push({
        path,
        message: `duplicate ${kind} "${id}" (at ${first} and ${index}); each ${kind} must be unique`,
      });
    }
  });
  return new Set(seen.keys());
}

function checkWidgets(input: Dict, problems: Problems): Set<string> {
  const widgets = isDict(input.components) ? entries(input.components.widgets) : [];
  widgets.forEach(([index, widget]) => {
    if (typeof widget.id === 'string' && !isKebabCase(widget.id)) {
      problems.push({
        path: `components.widgets.${index}.id`,
        message: kebabCaseMessage('widget id', widget.id),
      });
    }
  });
  return checkUnique(
    'widget id',
    'components.widgets',
    widgets.map(([index, widget]) => [index, widget.id] as const),
    problems,
  );
}

function checkTools(input: Dict, problems: Problems): Set<string> {
  const tools = entries(input.tools);
  tools.forEach(([index, tool]) => {
    if (typeof tool.name === 'string' && !isSnakeCase(tool.name)) {
      const suggestion = toSnakeCase(tool.name);
      problems.push({
        path: `tools.${index}.name`,
        message: `tool name "${tool.name}" is not lowercase snake_case starting with a letter; the model calls tools by this exact string${suggestion ? ` (for example "${suggestion}")` : ''}`,
      });
    }
  });
  return checkUnique(
    'tool name',
    'tools',
    tools.map(([index, tool]) => [index, tool.name] as const),
    problems,
  );
}

function checkWebhooks(input: Dict, problems: Problems): void {
  const webhooks = entries(input.webhooks);
  webhooks.forEach(([index, webhook]) => {
    if (typeof webhook.id === 'string' && !isKebabCase(webhook.id)) {
      const vendorHint = /[._]/.test(webhook.id)
        ? '; a vendor event name is never a valid id, put it in description instead'
        : '';
      problems.push({
        path: `webhooks.${index}.id`,
        message: kebabCaseMessage('webhook id', webhook.id) + vendorHint,
      });
    }
    // Cross-field rules need well-typed fields; a mistyped one is already reported by the shape.
    const scheme = isDict(webhook.signature) ? webhook.signature.scheme : undefined;
    const readable = isDict(scheme) ? wellTypedScheme(scheme) : undefined;
    if (readable !== undefined) {
      for (const message of checkSignatureScheme(readable)) {
        problems.push({ path: `webhooks.${index}.signature.scheme`, message });
      }
    }
  });
  checkUnique(
    'webhook id',
    'webhooks',
    webhooks.map(([index, webhook]) => [index, webhook.id] as const),
    problems,
  );
}

function checkSchedules(input: Dict, problems: Problems): void {
  const schedules = entries(input.schedules);
  schedules.forEach(([index, schedule]) => {
    if (typeof schedule.id === 'string' && !isKebabCase(schedule.id)) {
      problems.push({ path: `schedules.${index}.id`, message: kebabCaseMessage('schedule id', schedule.id) });
    }
    if (typeof schedule.cron === 'string') {
      const cron = checkCron(schedule.cron);
      if (!cron.ok) {
        const path =
          typeof schedule.id === 'string' && schedule.id !== ''
            ? `schedules[${schedule.id}]`
            : `schedules.${index}.cron`;
        problems.push({ path, message: `invalid cron "${schedule.cron}": ${cron.message}` });
      }
    }
  });
  checkUnique(
    'schedule id',
    'schedules',
    schedules.map(([index, schedule]) => [index, schedule.id] as const),
    problems,
  );
}

function checkEgress(input: Dict, problems: Problems): EgressPattern[] {
  const patterns: EgressPattern[] = [];
  if (!Array.isArray(input.egress)) return patterns;
  input.egress.forEach((entry: unknown, index) => {
    if (typeof entry !== 'string') return;
    const check = parseEgressPattern(entry);
    if (check.ok) patterns.push(check.pattern);
    else problems.push({ path: `egress.${index}`, message: check.message });
  });
  return patterns;
}

function checkOAuth(input: Dict, egress: readonly EgressPattern[], problems: Problems): void {
  if (!isDict(input.oauth) || !isDict(input.oauth.provider)) return;
  for (const field of ['authorizationUrl', 'tokenUrl'] as const) {
    const value = input.oauth.provider[field];
    if (typeof value === 'string') checkEgressUrl(value, `oauth.provider.${field}`, egress, problems);
  }
}

// An https:// URL whose origin egress covers; `originOnly`: nothing after the origin either.
function checkEgressUrl(
  value: string,
  path: string,
  egress: readonly EgressPattern[],
  problems: Problems,
  originOnly = false,
): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push({ path, message: `"${value}" is not a URL; write an absolute https:// URL` });
    return;
  }
  if (url.protocol !== 'https:') {
    problems.push({ path, message: `"${value}" must use https://` });
    return;
  }
  if (originOnly && value.replace(/\/$/, '') !== url.origin) {
    problems.push({ path, message: `"${value}" must be an origin only; write "${url.origin}"` });
    return;
  }
  if (!egress.some((pattern) => egressPatternCovers(pattern, url.origin))) {
    problems.push({
      path,
      message: `origin ${url.origin} is not covered by egress; add "${url.origin}" to egress`,
    });
  }
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** The `{name}` placeholders of a connection's header template. */
export function headerPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1]!);
}

// A connection of kind apiKey or basic: field names, the header template, verify and origins.
function checkConnection(input: Dict, egress: readonly EgressPattern[], problems: Problems): void {
  const connection = input.connection;
  if (!isDict(connection)) return;
  if (input.oauth !== undefined) {
    problems.push({
      path: 'connection',
      message: 'a definition declares either oauth or connection, not both; remove one',
    });
  }
  const fields = entries(connection.fields);
  const names = new Set<string>();
  for (const [index, field] of fields) {
    if (typeof field.name !== 'string') continue;
    if (!FIELD_NAME.test(field.name)) {
      problems.push({
        path: `connection.fields.${index}.name`,
        message: `field name "${field.name}" must start with a letter and hold only letters, digits and "_" (at most 64)`,
      });
    }
    names.add(field.name);
  }
  checkUnique(
    'field name',
    'connection.fields',
    fields.map(([index, field]) => [index, field.name] as const),
    problems,
  );
  if (connection.kind === 'basic') {
    for (const wanted of ['username', 'password']) {
      if (!names.has(wanted)) {
        problems.push({
          path: 'connection.fields',
          message: `a basic connection needs a field named "${wanted}"; add it`,
        });
      }
    }
    if (connection.header !== undefined) {
      problems.push({
        path: 'connection.header',
        message: 'a basic connection sends "Basic <username:password>"; remove header',
      });
    }
  }
  if (connection.kind === 'apiKey') {
    if (typeof connection.header !== 'string') {
      if (connection.header === undefined) {
        problems.push({
          path: 'connection.header',
          message: 'an apiKey connection needs header, the Authorization value, e.g. "Bearer {apiKey}"',
        });
      }
    } else {
      const used = headerPlaceholders(connection.header);
      if (used.length === 0) {
        problems.push({
          path: 'connection.header',
          message: `header "${connection.header}" names no field; write one in braces, e.g. "Bearer {apiKey}"`,
        });
      }
      for (const name of used) {
        if (!names.has(name)) {
          problems.push({
            path: 'connection.header',
            message: `header names "{${name}}", which connection.fields does not declare`,
          });
        }
      }
    }
  }
  if (isDict(connection.verify) && typeof connection.verify.url === 'string') {
    checkEgressUrl(connection.verify.url, 'connection.verify.url', egress, problems);
  }
  if (isDict(connection.authorization) && Array.isArray(connection.authorization.origins)) {
    connection.authorization.origins.forEach((origin: unknown, index) => {
      if (typeof origin === 'string') {
        checkEgressUrl(origin, `connection.authorization.origins.${index}`, egress, problems, true);
      }
    });
  }
}

function checkStorage(input: Dict, problems: Problems): void {
  if (!isDict(input.storage)) return;
  for (const scope of ['account', 'user'] as const) {
    const keys = input.storage[scope];
    if (!isDict(keys)) continue;
    for (const key of Object.keys(keys)) {
      const check = checkStorageKey(scope, key);
      if (!check.ok) problems.push({ path: `storage.${scope}.${key}`, message: check.message });
    }
  }
}

// A scheme the cross-field rules can read. A mistyped field is reported by the shape; it still
// counts as present (so one mistake is not reported twice) but its value is not read. With an
// unknown `format` the rules cannot tell which apply, so none run.
function wellTypedScheme(scheme: Dict): WebhookSignatureScheme | undefined {
  const typed: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(definitionSchemas().signatureSchemeSchema.shape)) {
    const value = scheme[key];
    if (value === undefined) continue;
    if (field.safeParse(value).success) typed[key] = value;
    else if (key === 'format') return undefined;
    else if (key !== 'signedPayload') typed[key] = key === 'toleranceSeconds' ? 1 : 'x';
  }
  return typed as WebhookSignatureScheme;
}
