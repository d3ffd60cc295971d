// Stops the servers that global-setup.ts started (SIGTERM, then SIGKILL after 10 s) and removes their
// temporary data directories (kept when E2E_KEEP_DATA is set, e.g. to read server.log).
import { rmSync } from 'node:fs';
import { specServers, type SpecServer } from './spec-servers';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown(): Promise<void> {
  const servers = process.env.E2E_SERVERS ? specServers() : [];
  await Promise.all(servers.map((server) => stop(server)));
}

async function stop(server: SpecServer): Promise<void> {
  const { pid, dataDir } = server;
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) {
      console.warn(`storefront (pid ${String(pid)}) ignored SIGTERM for 10 s; killing it`);
      process.kill(pid, 'SIGKILL');
    }
  }
  if (dataDir && !process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
}
