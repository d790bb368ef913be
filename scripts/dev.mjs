// `npm run dev`: the API server on 4000 (restarts on change) and Vite on 5173 proxying /api and /socket.io to it.
import { spawn } from 'node:child_process';

const procs = [
  spawn('node', ['--import', 'tsx', '--watch', 'server/main.ts'], {
    stdio: 'inherit',
    // The page comes from Vite (5173), whose proxy passes the browser's Origin on: let the socket accept it.
    env: {
      ...process.env,
      CLIENT_DIR: '',
      ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? 'http://localhost:5173,http://127.0.0.1:5173',
    },
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
