/** Standard communication protocols and their authentication support (data/standard_protocols.json; A1.1, A1.2). */
import { z } from 'zod';
import protocolsFile from '../../data/standard_protocols.json' with { type: 'json' };

const protocolsSchema = z.object({
  protocols: z.record(z.string().regex(/^[a-z][a-z0-9+.-]*$/), z.object({ name: z.string().min(1), auth: z.array(z.string()) })),
});
const PROTOCOLS = protocolsSchema.parse(protocolsFile).protocols;

export interface Protocol {
  scheme: string;
  name: string;
  auth: string[];
}

/** The protocol of a URL's scheme when it is a standard one, else null. */
export function standardProtocol(url: string): Protocol | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
  const protocol = scheme ? PROTOCOLS[scheme] : undefined;
  return scheme && protocol ? { scheme, ...protocol } : null;
}
