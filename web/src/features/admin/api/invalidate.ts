import type { QueryClient } from '@tanstack/react-query';
import { productKeys } from '@/lib/catalog';
import { adminKeys } from './keys';

/** After a catalogue write: the admin list, the statistics and the storefront's product queries. */
export function invalidateCatalogue(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.products() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
    queryClient.invalidateQueries({ queryKey: productKeys.all }),
  ]).then(() => undefined);
}
