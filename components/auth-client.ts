'use client';

import { createAuthClient } from 'better-auth/react';

// No baseURL: the dashboard and /api/auth are served by the same origin, so the client uses
// the page's own origin and works behind any host name or port.
export const authClient = createAuthClient();
