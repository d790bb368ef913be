// Runs `npm run admin` commands in the test's own process (the same entry point as the shell's), with extra
// environment variables for the call only, and returns the exit code and what the command printed.
import { vi } from 'vitest';
import { main } from '../../server/admin/cli';

export interface AdminRun {
  code: number;
  out: string;
  err: string;
}

export async function runAdmin(env: Record<string, string>, argv: string[]): Promise<AdminRun> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const log = vi.spyOn(console, 'log').mockImplementation((m: unknown) => void out.push(String(m)));
  const error = vi.spyOn(console, 'error').mockImplementation((m: unknown) => void err.push(String(m)));
  try {
    const code = await main(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
