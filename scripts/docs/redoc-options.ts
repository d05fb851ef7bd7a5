// Redoc's options for the docs page, given to `redocly build-docs` as its --openapi JSON.
import { sampleTabs } from './code-samples.js';

export const redocOptions = {
  // The sample picker: a sample shows only under a language listed here (code-samples.ts), and
  // Redoc's default list has no TypeScript. Payload is the request body's example, kept.
  codeSamples: { languages: [sampleTabs.curl, sampleTabs.typescript, { lang: 'Payload' }] },
};
