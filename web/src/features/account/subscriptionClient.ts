// This app's instance of the subscription-check SDK (@/lib/subscriptionCheck): the session's
// access token, localStorage for the offline cache, and the app's one way of leaving for the
// payment provider (so tests replace it with a spy).
import { getAccessToken } from '@/lib/authClient';
import { browserNavigation } from '@/lib/navigation';
import { createSubscriptionCheck } from '@/lib/subscriptionCheck';

export const subscriptionClient = createSubscriptionCheck({
  getAccessToken,
  redirect: (url) => browserNavigation.assign(url),
});
