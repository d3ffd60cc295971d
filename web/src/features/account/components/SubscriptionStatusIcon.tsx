import { CheckIcon } from '@/components/icons';
import { CrossIcon, WarningIcon } from './AccountIcons';
import type { SubscriptionTone } from '../rules';

/** Active: green tick; trial: yellow warning; anything else: red cross. Decorative: the label says it. */
export function SubscriptionStatusIcon({ tone }: { tone: SubscriptionTone }) {
  if (tone === 'active') return <CheckIcon className="h-6 w-6 shrink-0 text-green-600" />;
  if (tone === 'trial') return <WarningIcon className="h-6 w-6 shrink-0 text-yellow-500" />;
  return <CrossIcon className="h-6 w-6 shrink-0 text-red-600" />;
}
