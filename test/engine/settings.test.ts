// The options as the docs show them, held to their one declaration
// (src/engine/settings.ts): the README's table of UCI options (every option,
// in the order `uci` lists them, with its type, default, and range or
// values), docs/api.md's table of the library's options (the default of
// each that the settings name), and EngineOptions (a key for each such name).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../src/api/types.js';
import { SETTINGS, type Setting, defaultIn } from '../../src/engine/settings.js';
import { optionLines } from '../../src/uci/options.js';

/** The rows of the Markdown table whose header line starts with `header`, as trimmed cells. */
function tableRows(file: string, header: string): string[][] {
  const lines = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').split('\n');
  const at = lines.findIndex((line) => line.startsWith(header));
  expect(at, `${file}: a table headed ${header}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (let i = at + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    rows.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The text of a cell without its code marks and quotes. */
const plain = (cell: string): string => cell.replace(/[`']/g, '');

type Option = Setting & { readonly name: string };
const OPTIONS = Object.values(SETTINGS as Record<string, Setting>).filter((s): s is Option => s.name !== undefined);

describe("the README's table of UCI options", () => {
  const rows = tableRows('README.md', '| Option ');
  const row = (option: Option): string[] => rows.find((r) => r[0] === option.name) ?? [];

  it('lists every option, in the order uci lists them, with its type', () => {
    expect(rows.map((r) => r[0])).toEqual(optionLines().map((line) => /^option name (.+?) type /.exec(line)![1]));
    expect(rows.map((r) => r[0])).toEqual(OPTIONS.map((o) => o.name));
    for (const option of OPTIONS) expect(row(option)[1], option.name).toBe(option.type);
  });

  it('gives each option its default', () => {
    for (const option of OPTIONS) {
      const cell = row(option)[2];
      if (option.type === 'button') expect(cell, option.name).toBe('');
      else if (option.type !== 'string') expect(cell, option.name).toBe(String(option.default));
      else {
        // A string's default as `uci` shows it, or (a path beside the engine) its end, in code marks.
        const shown = option.default === '' ? '<empty>' : option.default;
        const code = /`([^`]+)`/.exec(cell)?.[1] ?? cell;
        expect(shown === code || shown.endsWith(`/${code}`), `${option.name}: ${cell} for ${shown}`).toBe(true);
      }
    }
  });

  it('gives each spin its range and each combo its values', () => {
    for (const option of OPTIONS) {
      const cell = row(option)[3];
      if (option.type === 'spin') expect(cell.startsWith(`${option.min}–${option.max}`), `${option.name}: ${cell}`).toBe(true);
      if (option.type === 'combo') for (const v of option.values) expect(cell, option.name).toContain(`\`${v}\``);
    }
  });
});

describe("docs/api.md's table of the library's options", () => {
  const rows = tableRows('docs/api.md', '| option | default |');
  const named = Object.values(SETTINGS as Record<string, Setting>).filter((s) => s.api !== undefined);

  it('has a row for each option the settings name, with its default', () => {
    for (const setting of named) {
      const [top, field] = setting.api!.split('.');
      const cell = rows.find((r) => r[0] === `\`${top}\``)?.[1];
      expect(cell, `a row for ${top}`).toBeDefined();
      if (setting.type === 'string' || setting.type === 'button') continue; // absent unless given
      const value = setting.type === 'spin' ? defaultIn(setting, 'api') : setting.default;
      if (field === undefined) expect(plain(cell!).startsWith(String(value)), `${setting.api}: ${cell}`).toBe(true);
      else expect(plain(cell!), setting.api).toContain(`${field}: ${value}`);
    }
  });
});

/** The library's top-level name of each setting it offers. */
type ApiName<S> = S extends { readonly api: `${infer Top}.${string}` } ? Top : S extends { readonly api: infer Top } ? Top : never;
// Each is an option of EngineOptions (a compile-time check: tsc fails otherwise).
const apiNamesAreEngineOptions: ApiName<(typeof SETTINGS)[keyof typeof SETTINGS]> extends keyof EngineOptions ? true : false = true;
void apiNamesAreEngineOptions;
