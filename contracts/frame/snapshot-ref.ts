/**
 * The block that names the snapshot a response came from. Every frame response carries it (`meta.snapshot`)
 * and every response of any service carries its id in the `X-Snapshot` header.
 */
import { z } from 'zod';
import { described } from '../common/describe.ts';

export const snapshotRefSchema = z
  .object(
    described(
      {
        id: z.string(),
        name: z.string(),
        source: z.string(),
        licence: z.string(),
        release: z.string(),
        frame_built: z.string(),
        author_layer_release: z.string(),
        synthetic: z.boolean(),
      },
      {
        id: 'Snapshot id, `<name>-<first 12 hex digits of the SHA-256 of its manifest>`: it changes whenever any input byte changes, so equal ids mean equal data. The value of the X-Snapshot header and of snapshot=.',
        name: "Human name of the snapshot (the manifest's `name`), e.g. `sample`.",
        source: 'Where the records come from (e.g. an OpenAlex works snapshot, or the generator for synthetic data).',
        licence: 'Licence of the data in this snapshot (e.g. CC0 for OpenAlex records).',
        release: 'Release date of the upstream data the snapshot was taken from (ISO 8601 date).',
        frame_built: 'When the frame was built from the release (ISO 8601 date).',
        author_layer_release: 'Release date of the author layer (authorships, affiliations) joined to the works (ISO 8601 date).',
        synthetic:
          'True when a generator made the rows up (the committed sample): no id in it is a real work, author or article, and pages link no identifier outward. False for a snapshot of real records.',
      },
    ),
  )
  .meta({ description: 'The pinned snapshot the answer was computed from.' });
export type SnapshotRef = z.infer<typeof snapshotRefSchema>;
