/**
 * Response schemas of the FAIR API, by path below the service prefix: the contract test checks real responses
 * against them and the OpenAPI document (openapi.ts) is generated from them.
 *
 * `/assess` answers with the engine's result (assessment.ts): the seed's fields plus `details`. With
 * `FAIR_BACKEND=fuji` the seed's fields are the same, and `details` carries what F-UJI reports instead of the
 * embedded engine's harvested evidence: per-metric tests and F-UJI's own per-metric `output`.
 */
import { z } from 'zod';
import { described } from '../common/describe.ts';
import { assessmentDetailsSchema, assessmentResultSchema, metricDetailSchema } from './assessment.ts';

/** Name the health check reports in `service`. */
export const FAIR_SERVICE_NAME = 'fair-assessment';

export const healthResponseSchema = z
  .strictObject(
    described(
      {
        status: z.enum(['healthy', 'degraded', 'unhealthy']),
        service: z.literal(FAIR_SERVICE_NAME),
        assessmentBackend: z.boolean(),
        reasons: z.array(z.string()),
        timestamp: z.iso.datetime(),
      },
      {
        status:
          'healthy (HTTP 200): the assessment backend and the rate-limit counters answer. degraded (200): the API answers but the backend does not, so assessments fail with 503 until it does. unhealthy (503): the rate-limit counters cannot be reached, so no assessment can be made at all.',
        service: 'Name of the service (fair-assessment).',
        assessmentBackend: 'Whether the assessment backend answered its probe (the DOI resolver, or the F-UJI server).',
        reasons: 'Why the status is not healthy, in plain words; empty when it is.',
        timestamp: 'When the backend was probed (ISO 8601, UTC); probes are reused for 30 s.',
      },
    ),
  )
  .meta({ description: 'API status and whether the assessment backend is reachable.' });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** One metric of an F-UJI result, with F-UJI's per-metric `output` (its evidence, shape per metric). */
export const fujiMetricDetailSchema = metricDetailSchema.extend(
  described({ output: z.unknown() }, { output: "F-UJI's output for this metric (its evidence), as F-UJI sent it; its shape differs per metric." }),
);

const details = assessmentDetailsSchema.shape;
export const fujiAssessmentDetailsSchema = z.object({
  ...described({ backend: z.literal('fuji') }, { backend: 'Marks a result computed by an external F-UJI server (FAIR_BACKEND=fuji).' }),
  metricSpecification: details.metricSpecification,
  startedAt: details.startedAt,
  finishedAt: details.finishedAt,
  durationMs: details.durationMs,
  summary: details.summary,
  ...described(
    {
      metrics: z.array(fujiMetricDetailSchema),
      fuji: z.object(
        described(
          { testId: z.string(), softwareVersion: z.string().nullable() },
          { testId: "F-UJI's test_id (SHA-1 of the identifier string).", softwareVersion: "F-UJI's software_version, e.g. 3.5.1; null when it did not say." },
        ),
      ),
    },
    { metrics: "Every metric with its tests as F-UJI reported them, and F-UJI's own output.", fuji: 'Which F-UJI server run this was.' },
  ),
});

export const fujiAssessmentResultSchema = assessmentResultSchema.extend(
  described(
    { details: fujiAssessmentDetailsSchema },
    { details: "Why, as F-UJI reported it: each metric's tests and F-UJI's own output, the full summary, and which F-UJI run it was." },
  ),
);
export type FujiAssessmentResult = z.infer<typeof fujiAssessmentResultSchema>;

/** What `POST /assess` returns: the embedded engine's result, or one mapped from F-UJI. */
export const assessResponseSchema = z.union([assessmentResultSchema, fujiAssessmentResultSchema]);
export type AssessResponse = z.infer<typeof assessResponseSchema>;

export const FAIR_RESPONSES = {
  '/api/v1/assess': assessResponseSchema,
  '/api/v1/health': healthResponseSchema,
} as const;
