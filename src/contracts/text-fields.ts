import { z } from 'zod';
import { mustBe } from './parse.js';

/** Optional free text of at most `max` characters; null means none. */
export const optionalNote = (max: number) =>
  z.string({ error: mustBe('text') }).max(max, `At most ${max} characters`).nullish().meta({ description: `Free text, up to ${max} characters.` });
