import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import type { Address } from '../api/accountApi';
import { ADDRESS_MESSAGES, PREFECTURES } from '@/components/address/addressRules';

const saved: Address = {
  id: 3,
  name: '上州太郎',
  telNumber: '0272000000',
  zip: '3710023',
  pref: '群馬県',
  city: '前橋市',
  address: '本町1-1-1',
  building: null,
};

const setup = async (addresses: Address[] = []) => {
  loginAs();
  serveUser(makeUser({ addresses: { main: addresses } }));
  const zips: string[] = [];
  server.use(
    http.get(apiUrl('/address/get/zip'), ({ request }) => {
      const zip = new URL(request.url).searchParams.get('zip') ?? '';
      zips.push(zip);
      return zip === '3710023'
        ? HttpResponse.json({ zip, pref: '群馬県', city: '前橋市', address: '本町' })
        : HttpResponse.json({ error: 'not_found', message: '郵便番号が見つかりません。' }, { status: 404 });
    }),
  );
  const user = userEvent.setup();
  renderApp('/edit/addresses');
  await screen.findByLabelText('お名前');
  return { user, zips };
};

const fillNewAddress = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.type(screen.getByLabelText('お名前'), '上州太郎');
  await user.type(screen.getByLabelText('電話番号'), '027-200-0000');
  await user.type(screen.getByLabelText('郵便番号'), '3710023');
  await waitFor(() => expect(screen.getByLabelText('市区町村')).toHaveValue('前橋市'));
  await user.type(screen.getByLabelText('番地'), '1-1-1');
};

describe('EditAddresses', () => {
  it('starts with Gunma among the 47 prefectures', async () => {
    await setup();

    const pref = screen.getByLabelText('都道府県') as HTMLSelectElement;
    expect(pref).toHaveValue('群馬県');
    expect(pref.options).toHaveLength(47);
    expect(PREFECTURES).toHaveLength(47);
    expect(screen.getByRole('link', { name: '戻る' })).toHaveAttribute('href', '/account/');
  });

  it('fills prefecture, city and address from a 7-digit zip', async () => {
    const { user, zips } = await setup();

    await user.selectOptions(screen.getByLabelText('都道府県'), '東京都');
    await user.type(screen.getByLabelText('郵便番号'), '371-0023');

    await waitFor(() => expect(screen.getByLabelText('都道府県')).toHaveValue('群馬県'));
    expect(screen.getByLabelText('郵便番号')).toHaveValue('3710023');
    expect(screen.getByLabelText('市区町村')).toHaveValue('前橋市');
    expect(screen.getByLabelText('番地')).toHaveValue('本町');
    expect(zips).toEqual(['3710023']);
  });

  it('keeps what was typed while the lookup was under way, and fills only the fields left alone', async () => {
    const { user } = await setup();
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(apiUrl('/address/get/zip'), async ({ request }) => {
        await answered;
        const zip = new URL(request.url).searchParams.get('zip') ?? '';
        return HttpResponse.json({ zip, pref: '群馬県', city: '高崎市', address: '' });
      }),
    );

    await user.selectOptions(screen.getByLabelText('都道府県'), '東京都');
    await user.type(screen.getByLabelText('郵便番号'), '3700000');
    await screen.findByText('住所を検索しています…');
    await user.type(screen.getByLabelText('市区町村'), '高崎市箕郷町');
    await user.type(screen.getByLabelText('番地'), '1-2-3');
    answer();

    await waitFor(() => expect(screen.getByLabelText('都道府県')).toHaveValue('群馬県'));
    expect(screen.getByLabelText('市区町村')).toHaveValue('高崎市箕郷町');
    expect(screen.getByLabelText('番地')).toHaveValue('1-2-3');
  });

  it('says when a zip is unknown and leaves the fields alone', async () => {
    const { user } = await setup();

    await user.type(screen.getByLabelText('郵便番号'), '9999999');

    expect(await screen.findByText(ADDRESS_MESSAGES.zipNotFound)).toBeInTheDocument();
    expect(screen.getByLabelText('市区町村')).toHaveValue('');
  });

  it('shows the field messages and keeps confirm disabled while required fields are empty', async () => {
    const { user } = await setup();

    await user.click(screen.getByLabelText('お名前'));
    await user.tab();
    await user.type(screen.getByLabelText('電話番号'), '12');
    await user.tab();
    await user.type(screen.getByLabelText('郵便番号'), '12');
    await user.tab();

    expect(screen.getByText(ADDRESS_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(ADDRESS_MESSAGES.telFormat)).toBeInTheDocument();
    expect(screen.getByText(ADDRESS_MESSAGES.zipFormat)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '確認する' })).toBeDisabled();
  });

  it('registers a first address after the confirm step', async () => {
    const bodies = answerPost('/address/set/register', { address: { ...saved, address: '本町1-1-1' } });
    const { user } = await setup();

    await fillNewAddress(user);
    await user.click(screen.getByRole('button', { name: '確認する' }));
    expect(screen.getByText('本町1-1-1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '登録する' }));

    expect(await screen.findByText(ADDRESS_MESSAGES.registered)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        name: '上州太郎',
        telNumber: '0272000000',
        zip: '3710023',
        pref: '群馬県',
        city: '前橋市',
        address: '本町1-1-1',
        building: null,
      },
    ]);
  });

  it('updates an existing address with the updater', async () => {
    const bodies = answerPost('/address/set/updater', { address: { ...saved, building: '本町ビル3F' } });
    const { user } = await setup([saved]);

    expect(screen.getByLabelText('番地')).toHaveValue('本町1-1-1');
    await user.type(screen.getByLabelText(/建物名・部屋番号/), '本町ビル3F');
    await user.click(screen.getByRole('button', { name: '確認する' }));
    await user.click(screen.getByRole('button', { name: '登録する' }));

    expect(await screen.findByText(ADDRESS_MESSAGES.updated)).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ building: '本町ビル3F', zip: '3710023' });
  });

  it('says the address could not be saved, with the reason of the server', async () => {
    answerPost('/address/set/updater', {
      status: 400,
      body: { error: 'validation_failed', message: '電話番号は半角数字で入力してください。' },
    });
    const { user } = await setup([saved]);

    await user.click(screen.getByRole('button', { name: '確認する' }));
    await user.click(screen.getByRole('button', { name: '登録する' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(ADDRESS_MESSAGES.failed);
    expect(alert).toHaveTextContent('電話番号は半角数字で入力してください。');
    await user.click(screen.getByRole('button', { name: '編集に戻る' }));
    expect(screen.getByLabelText('お名前')).toHaveValue('上州太郎');
  });
});
