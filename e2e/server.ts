// Starts the real server (serving the built client from dist/) for one spec file.
import { startTestServer, type TestServer } from '../tests/server/harness';
import path from 'node:path';

export async function startAppServer(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  return startTestServer({ clientDir: path.resolve('dist'), ...overrides });
}
