import { SponsorGroup } from '@/components/sponsors/SponsorLogos';
import type { Sponsor } from '@/components/sponsors/types';
import { useGetSponsorsQuery } from '../api/publicApi';
import type { ManualSponsor, SponsorList } from '../api/types';

const fromManual = (items: ManualSponsor[]): Sponsor[] =>
  items.map((item) => ({ name: item.name, img: item.src, link: item.link }));

function ManualSponsors({ courses }: { courses: NonNullable<SponsorList['courses']> }) {
  return (
    <div className="sponsors__manual">
      {(
        [
          ['A', 'Aコース協賛', 3],
          ['B', 'Bコース協賛', 2],
          ['C', 'Cコース協賛', 1],
        ] as const
      ).map(([key, label, size]) =>
        courses[key].length > 0 ? (
          <div key={key} className="sponsors__tier">
            <h3 className="sponsors__label">{label}</h3>
            <SponsorGroup label={label} sponsors={fromManual(courses[key])} size={size} />
          </div>
        ) : null,
      )}
      {courses.supporters.length > 0 && (
        <div className="sponsors__tier">
          <h3 className="sponsors__label">サポーター</h3>
          <ul className="personal-list" aria-label="サポーター">
            {courses.supporters.map((name, index) => (
              <li key={`${name}-${index}`}>{name}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function ComputedSponsors({ list }: { list: SponsorList }) {
  const { size3, size2, size1 } = list.corporate;
  const hasCorporate = size3.length + size2.length + size1.length > 0;
  return (
    <>
      {hasCorporate && (
        <div className="sponsors__tier">
          <h3 className="sponsors__label">企業・団体</h3>
          <SponsorGroup label="企業・団体（大）" sponsors={size3} size={3} />
          <SponsorGroup label="企業・団体（中）" sponsors={size2} size={2} />
          <SponsorGroup label="企業・団体（小）" sponsors={size1} size={1} />
        </div>
      )}
      {list.personal.length > 0 && (
        <div className="sponsors__tier">
          <h3 className="sponsors__label">個人</h3>
          <ul className="personal-list" aria-label="個人の支援者">
            {list.personal.map((person, index) => (
              <li key={`${person.name}-${index}`}>{person.name}</li>
            ))}
          </ul>
        </div>
      )}
      {!hasCorporate && list.personal.length === 0 && <p className="empty">最初の支援者になりませんか。</p>}
    </>
  );
}

/** The project's sponsor wall: corporate sponsors by logo size, then people; or the manual list. */
export function SponsorsBlock({ projectId }: { projectId: number }) {
  const { data, isLoading, isError } = useGetSponsorsQuery(projectId);
  if (isLoading) return <p className="loading-text" role="status">支援者を読み込み中…</p>;
  if (isError || !data) return <p className="empty">支援者を読み込めませんでした。</p>;
  return (
    <div className="sponsors">
      {data.manual && data.courses ? <ManualSponsors courses={data.courses} /> : <ComputedSponsors list={data} />}
    </div>
  );
}
