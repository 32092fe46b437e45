import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Relative asset URLs: weft serves the built page under a path of its own (/wallet/).
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 8000 },
});
