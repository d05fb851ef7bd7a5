// A setup file of the vitest suite (vitest.config.ts): each test file's records of what its
// servers exercised of the contract, written when it ends.
import { afterAll } from 'vitest';
import { flushContractRecords } from './contract-recorder.js';

afterAll(flushContractRecords);
