// Starts the built storefront server on a free loopback port with a throwaway SQLite database (or
// the PostgreSQL database in STOREFRONT_TEST_DATABASE) and stops it afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
export const binary = process.env.STOREFRONT_BINARY ?? join(root, 'build/server/storefront');

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

export async function startServer(extraEnv = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-authjs-'));
  const env = {
    ...process.env,
    // A plain-http URL, the local payment provider and the mail outbox: development only.
    STOREFRONT_ENV: 'development',
    STOREFRONT_PORT: String(port),
    STOREFRONT_BIND: '127.0.0.1',
    STOREFRONT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    STOREFRONT_DATA_DIR: dataDir,
    STOREFRONT_WEB_DIR: join(dataDir, 'no-web'),
    STOREFRONT_AUTH_CONFIRM_EMAIL: 'false',
    STOREFRONT_AUTH_ARGON2_OPS: '1',
    STOREFRONT_AUTH_ARGON2_MEMORY_KIB: '8192',
    STOREFRONT_LOG_LEVEL: 'warning',
    // On PostgreSQL this suite shares the API tests' database, whose two-factor secrets are sealed
    // with their key (server/tests/api/harness.h, kTotpKey): the same key, or the server refuses to start.
    STOREFRONT_TOTP_KEY: 'api-test-totp-key-0123456789abcdefghijklmnop',
    ...extraEnv,
  };
  if (process.env.STOREFRONT_TEST_DATABASE) env.STOREFRONT_DATABASE = process.env.STOREFRONT_TEST_DATABASE;
  const child = spawn(binary, [], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  // The server never outlives this process, however it ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 200 || child.exitCode !== null) {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error('the storefront server did not start');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    // `storefront users create`, the password piped on standard input.
    createUser(email, password, { admin = false } = {}) {
      const args = ['users', 'create', '--email', email, ...(admin ? ['--admin'] : [])];
      const run = spawnSync(binary, args, { env, input: password, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`users create failed: ${run.stderr}`);
      return run.stdout;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      process.removeListener('exit', killOnExit);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
