/**
 * Resource types F-UJI accepts for v0.5 FsF-R1-01MD-1 (data/resource_types.json, from its ResourceTypes.txt): a
 * type is compared lower-cased, a URL by its last path segment, and any type containing "dataset" is valid.
 */
import { z } from 'zod';
import resourceTypesFile from '../../data/resource_types.json' with { type: 'json' };

const TYPES: ReadonlySet<string> = new Set(
  z
    .object({ types: z.array(z.string().min(1)) })
    .parse(resourceTypesFile)
    .types.map((t) => t.toLowerCase()),
);

export function isResourceType(value: string): boolean {
  let type = value.toLowerCase();
  if (type.startsWith('http')) type = type.split('/').pop() ?? '';
  return type.includes('dataset') || TYPES.has(type);
}
