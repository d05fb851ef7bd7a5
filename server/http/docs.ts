// The published docs (built by `npm run docs` into dist/docs), served at /docs with everything
// they need from this server and nothing from anywhere else.
import { existsSync } from 'node:fs';
import express, { Router } from 'express';
import helmet from 'helmet';
import { consoleFolder, docsDir } from '../docs-folders.js';
import { sendError } from './errors.js';

// The reference page is pre-rendered HTML with inline styles and an inline module that hydrates it.
// Only these directives: helmet's defaults add upgrade-insecure-requests, which sends the renderer
// to https (and a blank page) wherever the docs are opened over plain HTTP under another hostname.
const referenceDirectives = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'", "'unsafe-inline'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
};

// The console (built into the docs' try/ folder) has no inline script or style and sends only to
// this origin: scripts and styles from this server alone, and no form posts anywhere.
const consoleDirectives = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
};

export function docsRouter(dir: string = docsDir): Router {
  const router = Router();
  const referencePolicy = helmet.contentSecurityPolicy({ useDefaults: false, directives: referenceDirectives });
  const consolePolicy = helmet.contentSecurityPolicy({ useDefaults: false, directives: consoleDirectives });
  router.use((req, res, next) =>
    (req.path.startsWith(`/${consoleFolder}/`) ? consolePolicy : referencePolicy)(req, res, next),
  );
  router.use((_req, res, next) => {
    if (existsSync(dir)) return next();
    sendError(res, 404, 'The docs are not built: run `npm run docs`.');
  });
  router.use(express.static(dir, { index: 'index.html', fallthrough: true }));
  return router;
}
