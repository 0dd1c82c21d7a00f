// Shared pieces of the resource schemas. Responses are read leniently (enterprise-api.md section 9):
// every object keeps properties it does not know; a documented field that is present must have
// its documented type; only fields the client relies on are required.
import { z } from 'zod';

export const int = z.int();
/** Epoch milliseconds in the samples. */
export const timestamp = z.int();
export const intList = z.array(z.int());
/** YYYY-MM-DD, a real calendar date. */
export const isoDate = z.iso.date();
