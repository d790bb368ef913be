import fs from 'node:fs';
import path from 'node:path';
// Renders a machine's structure to a Mermaid state diagram: nested states, initial states, every transition
// (events, named delays with their milliseconds, invoke results, eventless), guards and invoked actors.
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

const idOf = (node: AnyStateNode) => (node.path.length ? node.path.join('_') : 'root');

function delayLabel(machine: AnyStateMachine, delay: string | number): string {
  if (typeof delay === 'number') return `after ${delay} ms`;
  const impl = (machine.implementations.delays as Record<string, unknown>)[delay];
  return typeof impl === 'number' ? `after ${delay} (${impl} ms)` : `after ${delay}`;
}

function eventLabel(machine: AnyStateMachine, t: AnyTransitionDefinition & { delay?: string | number }): string {
  let label: string;
  if (!t.eventType) label = 'always';
  else if (t.delay !== undefined) label = delayLabel(machine, t.delay);
  else label = t.eventType.replace(/^xstate\.done\.actor\./, 'done: ').replace(/^xstate\.error\.actor\./, 'error: ');
  const guard = t.guard
    ? typeof t.guard === 'string'
      ? t.guard
      : ((t.guard as { type?: string }).type ?? 'guard')
    : null;
  return guard ? `${label} [${guard}]` : label;
}

export function toMermaid(machine: AnyStateMachine): string {
  const lines: string[] = ['stateDiagram-v2'];
  const edges: string[] = [];

  const walkTransitions = (node: AnyStateNode) => {
    const defs = [...[...node.transitions.values()].flat(), ...(node.always ?? [])] as AnyTransitionDefinition[];
    for (const t of defs) {
      const targets = (t.target as AnyStateNode[] | undefined) ?? [];
      const label = eventLabel(machine, t);
      if (!targets.length) edges.push(`  ${idOf(node)} --> ${idOf(node)} : ${label}`);
      for (const target of targets) edges.push(`  ${idOf(node)} --> ${idOf(target)} : ${label}`);
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) walkTransitions(child);
  };

  const walkStates = (node: AnyStateNode, indent: string) => {
    const children = Object.values(node.states) as AnyStateNode[];
    const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
    if (initial) lines.push(`${indent}[*] --> ${idOf(initial)}`);
    for (const child of children) {
      const id = idOf(child);
      const sub = Object.values(child.states).length > 0;
      const invokes = child.invoke.map((inv) => `invoke ${typeof inv.src === 'string' ? inv.src : inv.id}`);
      if (sub) {
        // Composite states take no description lines in Mermaid: the invoked actors go into the label.
        const label = [child.key, ...invokes].join(' · ');
        lines.push(`${indent}state "${label}" as ${id} {`);
        walkStates(child, `${indent}  `);
        lines.push(`${indent}}`);
      } else {
        lines.push(`${indent}state "${child.key}" as ${id}`);
        for (const inv of invokes) lines.push(`${indent}${id} : ${inv}`);
      }
    }
  };

  walkStates(machine.root, '  ');
  walkTransitions(machine.root);
  return `${[...lines, ...edges].join('\n')}\n`;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** Where the machine named `name` is defined: the one `<name>.machine.ts` under src/. */
export function machineSource(name: string): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name === `${name}.machine.ts`) found.push(path.relative(ROOT, full).split(path.sep).join('/'));
    }
  };
  walk(path.join(ROOT, 'src'));
  if (found.length !== 1) throw new Error(`${name}.machine.ts: found ${found.length} files`);
  return found[0];
}

/** The committed file: a heading and the diagram in a fenced block, so it renders on GitHub. */
export function diagramDocument(name: string, machine: AnyStateMachine): string {
  return [
    `# ${name}`,
    '',
    `Generated from \`${machineSource(name)}\` by \`npm run diagrams\`; do not edit by hand.`,
    '',
    '```mermaid',
    toMermaid(machine).trimEnd(),
    '```',
    '',
  ].join('\n');
}
