/**
 * The kinds of repository file the software metrics look at (data/software_files.json, F-UJI's
 * software_file.yaml) and the FRSM-13 requirements that read them (F-UJI metrics_v0.7_software.yaml,
 * `metric_test_requirements` of FRSM-13-R1-1 and -2). The harvest records, per file, which requirement
 * keywords it holds, so the evaluators stay pure functions of the evidence.
 */
import { z } from 'zod';
import filesFile from '../../data/software_files.json' with { type: 'json' };
import { SOFTWARE_FILE_KINDS, type SoftwareFileKind } from '../../../../../../contracts/fair/evidence.ts';

const kindsSchema = z.object({
  kinds: z.array(
    z.object({
      kind: z.enum(SOFTWARE_FILE_KINDS),
      category: z.array(z.string()),
      parse: z.enum(['full', 'file_name']),
      patterns: z.array(z.string().min(1)).min(1),
    }),
  ),
});

interface Kind {
  kind: SoftwareFileKind;
  parse: 'full' | 'file_name';
  /** Full-match regexes (F-UJI uses Python's re.fullmatch). */
  patterns: RegExp[];
}

const KINDS: Kind[] = kindsSchema
  .parse(filesFile)
  .kinds.map((k) => ({ kind: k.kind, parse: k.parse, patterns: k.patterns.map((p) => new RegExp(`^(?:${p})$`)) }));

/**
 * The kind of a repository path, or null. F-UJI joins every pattern into one alternation of named groups in the
 * file's order and full-matches it, so the first kind (in that order) whose pattern matches the whole path wins:
 * `docs/README.md` is a README, not a docs_directory entry.
 */
export function softwareFileKind(path: string): { kind: SoftwareFileKind; readContent: boolean } | null {
  for (const kind of KINDS) {
    if (kind.patterns.some((re) => re.test(path))) return { kind: kind.kind, readContent: kind.parse === 'full' };
  }
  return null;
}

/** FRSM-13-R1-1: any of the keywords in a file of any of the locations (`wiki` is never harvested, as in F-UJI). */
export const INSTRUCTIONS_REQUIREMENT = { locations: ['README', 'docs_directory'] as SoftwareFileKind[], keywords: ['build', 'install', 'run'] } as const;

/** FRSM-13-R1-2: any of the dependency files by name, and all of the keywords across the automation files. */
export const DEPENDENCIES_REQUIREMENT = {
  dependencyKind: 'dependencies' as SoftwareFileKind,
  dependencyFiles: ['requirements.txt'],
  automationLocations: ['Jenkinsfile', 'github_actions'] as SoftwareFileKind[],
  automationKeywords: ['build', 'deploy'],
} as const;

/** Every keyword a requirement looks for; the harvest records which of them each file holds. */
export const REQUIREMENT_KEYWORDS: readonly string[] = [...new Set([...INSTRUCTIONS_REQUIREMENT.keywords, ...DEPENDENCIES_REQUIREMENT.automationKeywords])];

/**
 * The keywords found in a file: F-UJI lower-cases each text value of the file's entry (name, path and, for 'full'
 * kinds, the content) and looks for the keyword as a substring, so `runtime` counts as `run`.
 */
export function keywordsIn(texts: readonly string[]): string[] {
  const lowered = texts.map((t) => t.toLowerCase());
  return REQUIREMENT_KEYWORDS.filter((k) => lowered.some((t) => t.includes(k)));
}
