import { defineConfig } from 'vitest/config';

// Preact through the automatic JSX runtime (tsconfig's jsxImportSource); no plugin needed.
export default defineConfig({
  build: { target: 'es2022', sourcemap: false },
  server: {
    // `npm run dev` proxies the API to a running `houserules serve` (or `npm run mock`).
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
