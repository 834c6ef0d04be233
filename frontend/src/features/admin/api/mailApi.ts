import { api } from '@/lib/api';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';

/** One line of the sent-mail list (`GET /v1/mail/get/list`). */
export type MailSummary = Schemas['MailSummaryDto'];
export type MailListPage = Schemas['MailListPage'];
/** A sent mail with its body and every recipient (`GET /v1/mail/get/detail`). */
export type MailDetail = Schemas['MailDetailDto'];
export type MailProgress = Schemas['MailProgressDto'];

/** `POST /v1/mail/set/register`: `projectId` null (or absent) mails every member; `content` is the editor's HTML. */
export type RegisterMailInput = Schemas['RegisterMailRequest'];

export type RegisterMailResult = ApiResponse<'register_mail'>;

/** Whether the sending job is over. */
export const isFinished = (progress: MailProgress | undefined) =>
  progress?.status === 'sent' || progress?.status === 'failed';

const mailApi = api.enhanceEndpoints({ addTagTypes: ['Mail'] }).injectEndpoints({
  endpoints: (build) => ({
    mailPreview: build.query<number, { projectId: number | null }>({
      query: ({ projectId }) => ({
        url: '/mail/get/preview',
        params: projectId === null ? {} : { projectId },
      }),
      transformResponse: (response: ApiResponse<'preview_recipients'>) => response.recipients,
    }),
    registerMail: build.mutation<RegisterMailResult, RegisterMailInput>({
      query: (body) => ({ url: '/mail/set/register', method: 'POST', body }),
      invalidatesTags: ['Mail'],
    }),
    mailList: build.query<MailListPage, number>({
      query: (page) => ({ url: '/mail/get/list', params: { page } }),
      transformResponse: (response: ApiResponse<'list_mails'>) => response.mails,
      providesTags: ['Mail'],
    }),
    mailDetail: build.query<MailDetail, number>({
      query: (id) => ({ url: '/mail/get/detail', params: { id } }),
      transformResponse: (response: ApiResponse<'mail_detail'>) => response.mail,
      providesTags: ['Mail'],
    }),
    /** The projects the form offers (the public project list). */
    mailProjects: build.query<Pick<Schemas['ProjectCardDto'], 'id' | 'title'>[], void>({
      query: () => '/helper/get/master',
      transformResponse: (response: ApiResponse<'master'>) =>
        response.master.projects.map((p) => ({ id: p.id, title: p.title })),
    }),
  }),
});

export const {
  useMailPreviewQuery,
  useRegisterMailMutation,
  useMailListQuery,
  useMailDetailQuery,
  useMailProjectsQuery,
} = mailApi;
