/**
 * The block that names the snapshot a response came from. Every frame response carries it (`meta.snapshot`)
 * and every response of any service carries its id in the `X-Snapshot` header.
 */
import { z } from 'zod';

export const snapshotRefSchema = z.object({
  /** `<name>-<first 12 hex of sha256(manifest.json)>`: changes whenever any input byte changes. */
  id: z.string(),
  name: z.string(),
  source: z.string(),
  licence: z.string(),
  release: z.string(),
  frame_built: z.string(),
  author_layer_release: z.string(),
  /**
   * The snapshot manifest's flag: true when a generator made the rows up (the sample), so no id in it is a
   * real work, author or article. Pages show a banner and link no identifier outward when it is true.
   */
  synthetic: z.boolean(),
});
export type SnapshotRef = z.infer<typeof snapshotRefSchema>;
