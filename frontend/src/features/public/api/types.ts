import type { Sponsor } from '@/components/sponsors/types';
import type { Schemas } from '@/lib/apiTypes';

/** Paid total and number of paid supports. */
export type SalesSum = Schemas['SumDto'];

export type Progress = Schemas['ProgressDto'];

/** A project of `GET /v1/helper/get/master`. */
/** A project of `GET /v1/helper/get/master`. */
export type ProjectCard = Schemas['ProjectCardDto'];

export type MasterResponse = Schemas['MasterResponse'];

export type SliderImage = Schemas['SliderDto'];

export type AnonymousBank = Schemas['BankDto'];

export type BlockReason = 'ended' | 'disabled' | 'sold_out';

export type ProjectReturn = Schemas['ReturnDto'];

export type ProjectDetail = Schemas['ProjectDetailDto'];

export type NewsItem = Schemas['InformationDto'];

export type Comment = Schemas['CommentDto'];

/** A page of comments: which page it is, how many there are, and the bar (null = dots). */
export interface CommentPage {
  comments: Comment[];
  total: number;
  page: number;
  pages: number;
  items: Array<number | null>;
}

export type ManualSponsor = Schemas['ManualLogoDto'];

export type SponsorList = Schemas['SponsorListResponse'];
