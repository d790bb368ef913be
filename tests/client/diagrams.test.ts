import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appEffects } from '../../src/services/app/app-effects';
import { diagramMachines } from '../../scripts/diagram-machines';

const machines = await diagramMachines(appEffects);
import { diagramDocument, toMermaid } from '../model/mermaid';

describe('statechart diagrams', () => {
  it.each(Object.entries(machines))(
    'docs/statecharts/%s.md matches its machine (run `npm run diagrams`)',
    (name, machine) => {
      const file = path.resolve('docs/statecharts', `${name}.md`);
      expect(fs.existsSync(file), `${file} is missing`).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe(diagramDocument(name, machine));
    },
  );

  it('shows named delays with their milliseconds, invoke results, guards and nesting', () => {
    const connectivity = toMermaid(machines.connectivity!);
    expect(connectivity).toContain('waiting --> pinging : after pingInterval (15000 ms)');
    expect(connectivity).toContain('pinging --> waiting : done: ping');
    const session = toMermaid(machines.session!);
    expect(session).toContain('restoring --> signedIn : always [hasSession]');
    expect(session).toContain('state "signedOut" as signedOut {');
    expect(session).toContain('state "signedIn · invoke fetchMe · invoke storedElsewhere" as signedIn {');
    expect(session).toContain('signedIn_refreshing --> signedIn_retrying : after refreshTimeout (60000 ms)');
    expect(session).toContain('signedOut_signingIn : invoke login');
  });
});
