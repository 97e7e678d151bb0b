/** Chooses where the recent layer lives: Redis when REDIS_URL is set (shared by replicas), else STATE_DIR/recent/. */
import type { StateLogger } from '../../state/store.ts';
import { FileLayerStore } from './file-layer-store.ts';
import type { RecentLayerStore } from './layer-store.ts';
import { RedisLayerStore } from './redis-layer-store.ts';

export async function openLayerStore(o: {
  stateDir: string;
  redisUrl?: string | undefined;
  logger?: StateLogger;
  patient?: boolean;
}): Promise<RecentLayerStore> {
  if (o.redisUrl) return RedisLayerStore.open({ url: o.redisUrl, patient: o.patient ?? false, ...(o.logger ? { logger: o.logger } : {}) });
  return FileLayerStore.open(o.stateDir);
}
