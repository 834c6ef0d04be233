import type { Schemas } from '@/lib/apiTypes';

/** Paid total and number of paid supports. */
export type SalesSum = Schemas['SumDto'];

export type Progress = Schemas['ProgressDto'];

/** A project of `GET /v1/helper/get/master`. */
export type ProjectCard = Schemas['ProjectCardDto'];

export type MasterResponse = Schemas['MasterResponse'];

/** One page of `GET /v1/project/get/list`: cards, how many match in all, the page and its size. */
export type ProjectListPage = Schemas['ListResponse'];

export type SliderImage = Schemas['SliderDto'];

export type AnonymousBank = Schemas['BankDto'];

export type BlockReason = Schemas['BlockReason'];

export type ProjectReturn = Schemas['ReturnDto'];

export type ProjectDetail = Schemas['ProjectDetailDto'];

export type NewsItem = Schemas['InformationDto'];

export type Comment = Schemas['CommentDto'];

/** A page of comments: which page it is, how many there are, and the bar (null = dots). */
export type CommentPage = Pick<Schemas['CommentListResponse'], 'comments' | 'total'> &
  Pick<Schemas['PaginationDto'], 'page' | 'pages' | 'items'>;

export type ManualSponsor = Schemas['ManualLogoDto'];

export type SponsorList = Schemas['SponsorListResponse'];
