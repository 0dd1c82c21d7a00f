// No CI system, or one enginectl has no conventions for: plain lines.
import { NO_CONVENTIONS, type CiSystem } from '../system.ts';

export const plain: CiSystem = { ...NO_CONVENTIONS, name: 'plain', detect: () => true };
