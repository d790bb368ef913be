// @vitest-environment node
// The import layers are enforced by lint (biome.json, noRestrictedImports per folder): each case writes a probe
// file into the real folder, lints it with the project's configuration and checks the verdict.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');

function lint(dir: string, ext: string, imports: string[]): { ok: boolean; output: string } {
  const file = path.join(root, dir, `ZzLayerProbe${process.pid}${ext}`);
  const body = imports.map((m, i) => `import * as m${i} from '${m}';`).join('\n');
  fs.writeFileSync(file, `${body}\nexport const all = [${imports.map((_, i) => `m${i}`).join(', ')}];\n`);
  try {
    const output = execFileSync(biome, ['lint', '--max-diagnostics=50', file], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, output };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
  finally {
    fs.rmSync(file, { force: true });
  }
}

describe('import layers (npm run lint)', () => {
  it('a view importing src/services fails, naming the rule and the reason', () => {
    const r = lint('src/ui/chats', '.tsx', ['../../services/api']);
    expect(r.ok).toBe(false);
    expect(r.output).toContain('noRestrictedImports');
    expect(r.output).toContain('Layers: views');
  });

  it('a view importing the composition root fails; importing machines and the contract passes', () => {
    expect(lint('src/ui', '.tsx', ['../app/runtime']).ok).toBe(false);
    expect(lint('src/ui/chats', '.tsx', ['../../machines/app/app.machine', '../../contract/api']).ok).toBe(true);
  });

  it('machines may use services but not views; services may not use machines; the contract uses neither', () => {
    expect(lint('src/machines/session', '.ts', ['../../services/api']).ok).toBe(true);
    expect(lint('src/machines/session', '.ts', ['../../ui/RuntimeContext']).ok).toBe(false);
    expect(lint('src/services', '.ts', ['../machines/session/session.machine']).ok).toBe(false);
    expect(lint('src/contract', '.ts', ['../services/api']).ok).toBe(false);
  });

  it('the server shares only the contract with the client, and the media server imports nothing of the messenger', () => {
    expect(lint('server/http', '.ts', ['../../src/contract/api']).ok).toBe(true);
    expect(lint('server/http', '.ts', ['../../src/machines/session/session.machine']).ok).toBe(false);
    expect(lint('server/sfu', '.ts', ['./room']).ok).toBe(true);
    expect(lint('server/sfu', '.ts', ['../config']).ok).toBe(false);
    expect(lint('server/sfu', '.ts', ['../../src/contract/api']).ok).toBe(false);
  });
});
