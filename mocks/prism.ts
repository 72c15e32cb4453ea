import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts `prism mock openapi.yaml` on 127.0.0.1 (or, with `proxyTo`, `prism proxy openapi.yaml
 * <server> --errors`: every request and answer checked against the contract, a violation answered
 * as an error) and waits until it answers. Prism leaves a child process running when only its
 * parent is killed, so it runs in its own process group and `stop` ends the whole group.
 */
export async function startPrism(port: number, options: { proxyTo?: string; timeoutMs?: number } = {}): Promise<{ url: string; stop: () => void }> {
  const { proxyTo, timeoutMs = 60_000 } = options;
  const mode = proxyTo ? ['proxy', 'openapi.yaml', proxyTo, '--errors'] : ['mock', 'openapi.yaml'];
  const child = spawn(path.join(root, 'node_modules/.bin/prism'), [...mode, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`Prism did not start on ${url}:\n${output}`);
}
