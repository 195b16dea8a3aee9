/**
 * The API's document as the gateway serves it once every unit has answered (built here without
 * starting anything), checked by a standard OpenAPI linter: Redocly CLI with its recommended rules
 * (`redocly.yaml`). Any error fails; what the linter says is shown.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mergedApiDocument } from './support/api-document.ts';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const redocly = join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{
    ruleId: string;
    severity: string;
    message: string;
    location: Array<{ pointer: string }>;
  }>;
}

async function lint(doc: object): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const args = [redocly, 'lint', file, '--config', join(repoRoot, 'redocly.yaml'), '--format', 'json'];
    // It exits 1 when it finds errors: the report is read either way.
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
      // Offline: no usage report, no check for a newer version.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    return JSON.parse(stdout) as LintReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const problems = (report: LintReport, severity: string) =>
  report.problems
    .filter((p) => p.severity === severity)
    .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

describe('the OpenAPI document, linted', () => {
  const doc = mergedApiDocument();

  it('has no error under Redocly CLI recommended rules', async () => {
    const report = await lint(doc);
    const warnings = problems(report, 'warn');
    if (warnings.length) console.warn(`OpenAPI lint warnings:\n${warnings.join('\n')}`);
    expect(problems(report, 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('the linter does find errors (a document without servers or security on an operation)', async () => {
    const broken = structuredClone(doc) as typeof doc & { servers?: unknown };
    delete broken.servers;
    delete (broken.paths!['/healthz']!.get as { security?: unknown }).security;
    const found = problems(await lint(broken), 'error');
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^no-empty-servers/),
        expect.stringMatching(/^security-defined at #\/paths\/~1healthz\/get/),
      ]),
    );
  }, 60_000);

  it('writes each error answer given alike by several operations once, under components.responses', () => {
    const seen = new Map<string, number>();
    for (const item of Object.values(doc.paths ?? {}))
      for (const op of Object.values(item))
        for (const [status, response] of Object.entries(op.responses ?? {}))
          if (Number(status) >= 400 && !('$ref' in response)) {
            const text = JSON.stringify(response);
            seen.set(text, (seen.get(text) ?? 0) + 1);
          }
    const repeated = [...seen].filter(([, n]) => n > 1).map(([text]) => text.slice(0, 120));
    expect(repeated).toEqual([]);
    const refs = JSON.stringify(doc.paths).match(/#\/components\/responses\/\w+/g) ?? [];
    expect(refs.length).toBeGreaterThan(500);
    for (const ref of new Set(refs)) expect(doc.components?.responses).toHaveProperty(ref.split('/').pop()!);
  });
});
