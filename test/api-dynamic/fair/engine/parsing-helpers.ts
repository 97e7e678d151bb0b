/** Small checks shared by the parsing tests. */
import { metadataSchema } from '../../../../contracts/fair/evidence.ts';

/** Does a merged record satisfy the evidence contract? */
export function roundTripSafe(record: unknown): boolean {
  return metadataSchema.safeParse(record).success;
}
