// `npm run diagrams`: renders every client machine to Mermaid under docs/statecharts/.
// tests/client/diagrams.test.ts fails when a committed diagram differs from its machine.
import fs from 'node:fs';
import path from 'node:path';
import { appEffects } from '../src/services/app/app-effects';
import { diagramMachines } from './diagram-machines';
import { diagramDocument } from '../tests/model/mermaid';

const dir = path.resolve('docs/statecharts');
fs.mkdirSync(dir, { recursive: true });
for (const [name, machine] of Object.entries(await diagramMachines(appEffects))) {
  const file = path.join(dir, `${name}.md`);
  fs.writeFileSync(file, diagramDocument(name, machine));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
