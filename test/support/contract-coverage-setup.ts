// Each test file's records of what its servers exercised of the contract, written when it ends.
import { afterAll } from 'vitest';
import { flushContractRecords } from './contract-coverage.js';

afterAll(flushContractRecords);
