// `npm start`: the whole product in one process on embedded defaults.
import { createServer } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const server = await createServer(config);
await server.app.listen({ port: config.port, host: config.host });
server.app.log.info(`Messenger on http://localhost:${config.port} (data in ${config.dataDir}, ${server.ctx.dialect})`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
