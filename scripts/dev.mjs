// `npm run dev`: the API server on 4000 (restarts on change) and Vite on 5173 proxying /api and /socket.io to it.
import { spawn } from 'node:child_process';

const procs = [
  spawn('node', ['--import', 'tsx', '--watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, CLIENT_DIR: '' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const p of procs) p.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs) p.on('exit', (code) => code && stop());
