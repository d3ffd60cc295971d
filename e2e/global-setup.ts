// Starts the built server for the specs, one per worker (spec-servers.ts): each on a free loopback
// port, with a fresh temporary data directory (SQLite database, outbox mail), the catalogue seed
// and web/dist, sign-up without email confirmation. Waits for GET /healthz, then creates the admin
// account the specs sign in with (`storefront users create --admin`, password on stdin, the
// server's own environment).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKERS, type SpecServer } from './spec-servers';

const here = dirname(fileURLToPath(import.meta.url));
export const SERVER_BINARY = resolve(process.env.E2E_SERVER_BIN ?? join(here, '..', 'build', 'server', 'storefront'));
export const WEB_DIR = resolve(here, '..', 'web', 'dist');

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('could not read the probe port'));
        return;
      }
      probe.close(() => resolvePort(address.port));
    });
  });
}

async function waitForHealth(baseURL: string, exited: () => string | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit !== null) throw new Error(`the server exited before it was healthy (${exit})`);
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      lastError = `HTTP ${String(response.status)}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`GET ${baseURL}/healthz did not answer 200 within ${String(timeoutMs)} ms (${lastError})`);
}

/**
 * Creates the admin account with the server's own tool, after the server has prepared the database
 * (same environment, so the same database file). The password goes on stdin, never on the command line.
 */
function createAdmin(env: NodeJS.ProcessEnv): { email: string; password: string } {
  const email = process.env.E2E_ADMIN_EMAIL ?? 'admin@example.test';
  const password = process.env.E2E_ADMIN_PASSWORD ?? `e2e-${randomBytes(12).toString('base64url')}`;
  const result = spawnSync(SERVER_BINARY, ['users', 'create', '--email', email, '--admin'], {
    env,
    input: `${password}\n`,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.error || result.status !== 0) {
    const reason = result.error ? result.error.message : `exit code ${String(result.status)}`;
    throw new Error(`storefront users create --email ${email} --admin failed (${reason})\n${result.stdout}${result.stderr}`);
  }
  return { email, password };
}

export default async function globalSetup(): Promise<void> {
  if (!existsSync(SERVER_BINARY)) {
    throw new Error(`No server binary at ${SERVER_BINARY}: build it first (make build), or set E2E_SERVER_BIN.`);
  }
  if (!existsSync(join(WEB_DIR, 'index.html'))) {
    throw new Error(`No web build at ${WEB_DIR}: run npm run build in web/ first.`);
  }

  // One after another: each takes its free port before the next looks for one.
  const servers: SpecServer[] = [];
  try {
    for (let i = 0; i < WORKERS; i++) servers.push(await startServer());
  } catch (error) {
    for (const started of servers) process.kill(started.pid, 'SIGKILL');
    throw error;
  }
  // Workers start after global setup and inherit this (spec-servers.ts); global teardown runs in
  // this same process and reads it too.
  process.env.E2E_SERVERS = JSON.stringify(servers);
}

async function startServer(): Promise<SpecServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${String(port)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-e2e-'));
  const logPath = join(dataDir, 'server.log');
  const log = openSync(logPath, 'a');

  // One environment for the server and for its command-line tools, so both use the same database.
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // The local test payment provider and the mail outbox: development only (docs/configuration.md).
    STOREFRONT_ENV: 'development',
    STOREFRONT_BIND: '127.0.0.1',
    STOREFRONT_PORT: String(port),
    STOREFRONT_DATABASE: join(dataDir, 'e2e.db'),
    STOREFRONT_DATA_DIR: dataDir,
    STOREFRONT_PUBLIC_URL: baseURL,
    STOREFRONT_WEB_DIR: WEB_DIR,
    STOREFRONT_SEED: 'true',
    STOREFRONT_MAIL_TRANSPORT: 'outbox',
    // Sign-up signs straight in (no confirmation email), as the specs expect.
    STOREFRONT_AUTH_CONFIRM_EMAIL: 'false',
    // Every staff spec signs in as the one admin, more often than the per-account limit (10 per
    // 5 minutes) allows; the throttle itself is tested in the API tests (auth_signin_api_test.cpp).
    STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ACCOUNT: '1000',
    STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ADDRESS: '1000',
  };

  const server = spawn(SERVER_BINARY, [], {
    env: serverEnv,
    stdio: ['ignore', log, log],
  });
  let exit: string | null = null;
  server.on('exit', (code, signal) => {
    exit = signal ? `signal ${signal}` : `exit code ${String(code)}`;
  });
  server.on('error', (error) => {
    exit = error.message;
  });

  try {
    await waitForHealth(baseURL, () => exit, 30_000);
  } catch (error) {
    server.kill('SIGKILL');
    const output = existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-4_000) : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- server log (${logPath}) ---\n${output}`);
  }

  let admin: { email: string; password: string };
  try {
    admin = createAdmin(serverEnv);
  } catch (error) {
    server.kill('SIGKILL');
    throw error;
  }

  server.unref();
  return { baseURL, dataDir, adminEmail: admin.email, adminPassword: admin.password, pid: server.pid ?? 0 };
}
