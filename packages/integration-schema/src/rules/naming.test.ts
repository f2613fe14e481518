import {
  isKebabCase,
  isSnakeCase,
  kebabCaseMessage,
  toKebabCase,
  toSnakeCase,
} from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';

describe('isKebabCase', () => {
  it.each([
    ['a', true],
    ['acme', true],
    ['acme-notes', true],
    ['3d-prints', true],
    ['42', true],
    ['a1-b2-c3', true],
    ['acme-notes-board-2', true],
    ['', false],
    ['Acme', false],
    ['acme_notes', false],
    ['acme--notes', false],
    ['-acme', false],
    ['acme-', false],
    ['-', false],
    ['acme notes', false],
    ['acme.notes', false],
    ['acmé', false],
    ['acme-notes\n', false],
  ])('%j -> %s', (value, expected) => {
    expect(isKebabCase(value)).toBe(expected);
  });
});

describe('isSnakeCase', () => {
  it.each([
    ['a', true],
    ['sync', true],
    ['search_notes', true],
    ['get_v2_items', true],
    ['a1', true],
    ['list_2', true],
    ['', false],
    ['2fa_check', false],
    ['_sync', false],
    ['sync_', false],
    ['sync__notes', false],
    ['Sync', false],
    ['syncNotes', false],
    ['sync-notes', false],
    ['sync notes', false],
    ['sync.notes', false],
  ])('%j -> %s', (value, expected) => {
    expect(isSnakeCase(value)).toBe(expected);
  });
});

describe('toKebabCase', () => {
  it.each([
    ['Notes_Board', 'notes-board'],
    ['syncNotes', 'sync-notes'],
    ['issue.created', 'issue-created'],
    ['  Hello World  ', 'hello-world'],
    ['a1B2', 'a1-b2'],
    ['note__x', 'note-x'],
    ['ABC', 'abc'],
    ['2fa_check', '2fa-check'],
    ['already-kebab', 'already-kebab'],
    ['---', ''],
    ['', ''],
  ])('%j -> %j', (value, expected) => {
    expect(toKebabCase(value)).toBe(expected);
    if (expected !== '') expect(isKebabCase(expected)).toBe(true);
  });
});

describe('toSnakeCase', () => {
  it.each([
    ['syncNotes', 'sync_notes'],
    ['sync-notes', 'sync_notes'],
    ['Sync', 'sync'],
    ['Notes_Board', 'notes_board'],
    ['2fa_check', 'fa_check'],
    ['_sync_', 'sync'],
    ['issue.created', 'issue_created'],
    ['already_snake', 'already_snake'],
    ['123', ''],
    ['', ''],
  ])('%j -> %j', (value, expected) => {
    expect(toSnakeCase(value)).toBe(expected);
    if (expected !== '') expect(isSnakeCase(expected)).toBe(true);
  });
});

describe('kebabCaseMessage', () => {
  it.each([
    [
      'widget id',
      'Notes_Board',
      'widget id "Notes_Board" is not kebab-case; use lowercase letters and digits separated by single hyphens (for example "notes-board")',
    ],
    [
      'slug',
      'acme--notes',
      'slug "acme--notes" is not kebab-case; use lowercase letters and digits separated by single hyphens (for example "acme-notes")',
    ],
    [
      'schedule id',
      '',
      'schedule id "" is not kebab-case; use lowercase letters and digits separated by single hyphens',
    ],
    [
      'action name',
      '__',
      'action name "__" is not kebab-case; use lowercase letters and digits separated by single hyphens',
    ],
  ])('%s %j', (what, value, expected) => {
    expect(kebabCaseMessage(what, value)).toBe(expected);
  });
});
