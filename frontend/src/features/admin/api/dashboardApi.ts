import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

/** `GET /v1/admin/get/dashboard`. */
export type Dashboard = Schemas['DashboardResponse'];
export type DashboardProject = Schemas['DashboardProjectDto'];
export type FundingPoint = Schemas['FundingPointDto'];
/** One entry of the audit log (`GET /v1/admin/get/actions`). */
export type AdminAction = Schemas['AdminActionDto'];
/** `POST /v1/user/resendRegisterMail`. */
export type ResendResult = Schemas['ResendRegisterMailResponse'];

/** How many audit-log entries the dashboard shows. */
export const RECENT_ACTIONS = 20;

const dashboardApi = api.enhanceEndpoints({ addTagTypes: ['AdminDashboard', 'AdminActions'] }).injectEndpoints({
  endpoints: (build) => ({
    adminDashboard: build.query<Dashboard, void>({
      query: () => '/admin/get/dashboard',
      providesTags: ['AdminDashboard'],
    }),
    adminActions: build.query<AdminAction[], number>({
      query: (limit) => ({ url: '/admin/get/actions', params: { limit } }),
      transformResponse: (response: Schemas['AdminActionsResponse']) => response.actions,
      providesTags: ['AdminActions'],
    }),
    resendRegisterMail: build.mutation<ResendResult, Schemas['ResendRegisterMailRequest']>({
      query: (body) => ({ url: '/user/resendRegisterMail', method: 'POST', body }),
      invalidatesTags: ['AdminActions'],
    }),
  }),
});

export const { useAdminDashboardQuery, useAdminActionsQuery, useResendRegisterMailMutation } = dashboardApi;
