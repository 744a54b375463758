import { defineConfig } from 'vitest/config';

const api = process.env.HOUSERULES_API ?? 'http://127.0.0.1:8080';

// Preact through the automatic JSX runtime (tsconfig's jsxImportSource); no plugin needed.
export default defineConfig({
  build: { target: 'es2022', sourcemap: false },
  // `npm run dev` and `vite preview` proxy the API to a running `houserules serve` (or `npm run mock`)
  // on :8080, so the browser checks can run against the real server before it embeds the app:
  // `npx vite preview --host 127.0.0.1 --port 4173 & npm run e2e -- --base http://127.0.0.1:4173`.
// HOUSERULES_API=http://127.0.0.1:PORT points them at a server on another port.
  server: { proxy: { '/api': { target: api, ws: true } } },
  preview: { proxy: { '/api': { target: api, ws: true } } },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
