/**
 * Schemas of the two JSON documents a frame snapshot carries. The real pilot files
 * (../shared/reference/metacan/webapp-v1.1.0/) must pass them too: a test checks that.
 */
import { z } from 'zod';

/** `findings.json`: one object keyed by finding slug. */
export const findingsSchema = z.record(
  z.string().regex(/^[a-z0-9_]+$/, 'a snake_case slug'),
  z
    .object({
      headline: z.string().min(1),
      values: z.record(z.string(), z.unknown()),
      computed_at_utc: z.string().min(1),
    })
    .loose(),
);
export type Findings = z.infer<typeof findingsSchema>;

/** `predictions-report.json`: the frame predictions summary and the model's evaluation report. */
export const predictionsReportSchema = z
  .object({
    predictions: z
      .object({
        model_version: z.string().min(1),
        n_predictions: z.number().int().min(0),
        prediction_status: z.string().min(1),
        limitations: z.array(z.string()).min(1),
        category_order: z.array(z.string()).min(1),
        candidate_policy: z.string(),
        consensus_policy: z.string(),
      })
      .loose(),
    model: z.object({ model_version: z.string().min(1), evaluation: z.record(z.string(), z.unknown()) }).loose(),
  })
  .strict();
