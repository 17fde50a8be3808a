import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { AdminMe } from '../api/me';
import { useDashboardBaseQuery } from '../api/dashboard';
import { useAuthUser } from '../auth/auth-context';
import { mayCall } from '../auth/console-access';
import { gateTargetOf } from '../disclaimer-gate/gate-target';
import { useDisclaimerGateQuery } from '../disclaimer-gate/disclaimer-gate-api';

/**
 * While the entry splash shows, what the first screen after it asks for is asked already: the
 * disclaimer gate of the console and, on the dashboard, its counts and its code. The splash's second
 * then runs beside that work instead of before it. The answers land in the store the screens read.
 */
export function useEntryPrefetch(me: AdminMe | undefined): void {
  const target = gateTargetOf(useAuthUser());
  const onDashboard = /^\/?$/.test(useLocation().pathname);
  useDisclaimerGateQuery(me && target ? target : skipToken);
  useDashboardBaseQuery(undefined, { skip: !(me && onDashboard && mayCall(me, 'dashboard.base')) });
  useEffect(() => {
    if (me && onDashboard) void import('../dashboard/DashboardPage');
  }, [me, onDashboard]);
}
