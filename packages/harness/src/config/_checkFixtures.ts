import { parseFixtureRequest } from '@platform/sdk/testing';
import { checkKeys, describeValue, isRecord, type Report } from './_shape.js';
import { checkVariantRecord } from './_variants.js';

const FIXTURE_KEYS = ['request', 'response', 'status', 'headers'] as const;

// Path-only targets resolve against the egress origin only while a surface renders (the spec puts
// the zero-or-several-origins error there), so here they are parsed against a stand-in origin: the
// rest of the grammar (method, :param, *, query, fragment) is still checked up front.
const STAND_IN_ORIGIN = 'https://egress.invalid';

/** Checks `fixtures`: variants as keys, each an array of `HttpFixture`s. */
export function checkFixtures(value: unknown, field: string, report: Report): void {
  checkVariantRecord(value, field, report, (list, at) => {
    if (!Array.isArray(list)) {
      report(
        at,
        `must be an array of fixtures ({ request, response?, status?, headers? }), not ${describeValue(list)}.`,
      );
      return;
    }
    for (const [index, fixture] of list.entries()) checkFixture(fixture, `${at}[${index}]`, report);
  });
}

function checkFixture(fixture: unknown, field: string, report: Report): void {
  if (!isRecord(fixture)) {
    report(
      field,
      `must be a fixture object { request, response?, status?, headers? }, not ${describeValue(fixture)}.`,
    );
    return;
  }
  checkKeys(fixture, FIXTURE_KEYS, field, report);
  checkRequest(fixture.request, `${field}.request`, report);
  checkStatus(fixture.status, `${field}.status`, report);
  checkHeaders(fixture.headers, `${field}.headers`, report);
}

function checkRequest(request: unknown, field: string, report: Report): void {
  if (typeof request !== 'string') {
    report(
      field,
      `${request === undefined ? 'is required' : `must be a string, not ${describeValue(request)}`}; write "<METHOD> <target>", for example "GET /v1/notes" or "GET https://api.acme.com/v1/notes".`,
    );
    return;
  }
  try {
    parseFixtureRequest(request, { egress: [STAND_IN_ORIGIN] });
  } catch (error) {
    report(field, (error as Error).message);
  }
}

// Fetch's Response only carries 200-599 (the constructor throws a RangeError below 200), and a
// fixture stands for a final response, so 1xx statuses are refused here rather than at answer time.
function checkStatus(status: unknown, field: string, report: Report): void {
  if (status === undefined) return;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    report(
      field,
      `must be an integer HTTP status from 200 to 599, not ${describeValue(status)}; leave it out for 200 (with a response) or 204 (without).`,
    );
  }
}

function checkHeaders(headers: unknown, field: string, report: Report): void {
  if (headers === undefined) return;
  if (!isRecord(headers)) {
    report(field, `must be an object of header name to string value, not ${describeValue(headers)}.`);
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') {
      report(
        `${field}.${name}`,
        `must be a string, not ${describeValue(value)}; write the header value as text.`,
      );
      continue;
    }
    try {
      // The same check the Response will make when the fixture answers, made while the config loads.
      new Headers([[name, value]]);
    } catch {
      report(
        `${field}.${name}`,
        `"${name}: ${value}" is not a valid HTTP header; use a token name (letters, digits, "-") and a value without line breaks.`,
      );
    }
  }
}
