import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { IMAGE_CHOOSE_LABEL, IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../components/ImageUpload';
import { AGE_GROUPS, PROFILE_MESSAGES } from './EditProfile';

const setup = async () => {
  loginAs();
  serveUser();
  const user = userEvent.setup();
  const rendered = renderApp('/edit/profile');
  await screen.findByLabelText('ユーザー名');
  return { user, ...rendered };
};

const imageFile = (name: string, size: number, type = 'image/png') =>
  new File([new Uint8Array(size)], name, { type });

describe('EditProfile', () => {
  it('offers a visible, named button that opens the file chooser, in the icon group', async () => {
    const { user } = await setup();
    const group = screen.getByRole('group', { name: 'プロフィールアイコン' });
    const button = within(group).getByRole('button', { name: IMAGE_CHOOSE_LABEL });
    expect(button).toBeVisible();
    expect(button).toHaveAccessibleDescription(/2MB以内/);
    const input = screen.getByLabelText<HTMLInputElement>('プロフィールアイコンの画像ファイル');
    const opened = vi.spyOn(input, 'click');

    button.focus();
    await user.keyboard('{Enter}');

    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('shows the newest icon, which the server lists first', async () => {
    loginAs();
    serveUser(
      makeUser({
        urls: {
          icon: [
            { id: 12, url: 'https://cdn.example.jp/second.png' },
            { id: 11, url: 'https://cdn.example.jp/first.png' },
          ],
          logo: [],
        },
      }),
    );
    renderApp('/edit/profile');

    expect(await screen.findByRole('img', { name: 'プロフィールアイコン' })).toHaveAttribute(
      'src',
      'https://cdn.example.jp/second.png',
    );
  });

  it('fills the form with the current profile and offers the age groups of the spec', async () => {
    await setup();

    expect(screen.getByLabelText('ユーザー名')).toHaveValue('taro');
    expect(screen.getByLabelText('表示名')).toHaveValue('上州太郎');
    expect(screen.getByLabelText('自己紹介')).toHaveValue('前橋で暮らしています。');
    const select = screen.getByLabelText('年代');
    expect(select).toHaveValue('30代');
    const options = Array.from((select as HTMLSelectElement).options).map((option) => option.value);
    expect(options).toEqual(['', ...AGE_GROUPS]);
    expect(screen.getByRole('link', { name: 'キャンセル' })).toHaveAttribute('href', '/account/');
  });

  it('confirms, then saves, and says the profile was updated', async () => {
    const bodies = answerPost('/user/set/update', { user: makeUser({ displayname: 'ぐんま花子' }) });
    const { user } = await setup();

    await user.clear(screen.getByLabelText('表示名'));
    await user.type(screen.getByLabelText('表示名'), 'ぐんま花子');
    await user.selectOptions(screen.getByLabelText('年代'), '40代');
    await user.click(screen.getByRole('button', { name: '確認する' }));

    expect(screen.getByText('ぐんま花子')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await user.click(screen.getByRole('button', { name: '登録する' }));

    expect(await screen.findByText(PROFILE_MESSAGES.saved)).toBeInTheDocument();
    expect(bodies).toEqual([
      { id: 7, username: 'taro', displayname: 'ぐんま花子', profile: '前橋で暮らしています。', ageGroup: '40代' },
    ]);
  });

  it('goes back to editing with the typed values kept', async () => {
    const { user } = await setup();

    await user.type(screen.getByLabelText('ユーザー名'), '2');
    await user.click(screen.getByRole('button', { name: '確認する' }));
    await user.click(screen.getByRole('button', { name: '編集に戻る' }));

    expect(screen.getByLabelText('ユーザー名')).toHaveValue('taro2');
  });

  it('shows the server message when saving fails', async () => {
    answerPost('/user/set/update', {
      status: 400,
      body: { error: 'validation_failed', message: 'ユーザー名は50文字以内で入力してください。' },
    });
    const { user } = await setup();

    await user.click(screen.getByRole('button', { name: '確認する' }));
    await user.click(screen.getByRole('button', { name: '登録する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('ユーザー名は50文字以内で入力してください。');
  });

  it('refuses an icon over 2 MB without sending it', async () => {
    const { user } = await setup();

    await user.upload(screen.getByLabelText('プロフィールアイコンの画像ファイル'), imageFile('big.png', IMAGE_MAX_BYTES + 1));

    expect(await screen.findByRole('alert')).toHaveTextContent(IMAGE_MESSAGES.tooLarge);
  });

  it('refuses a file that is not a jpg, jpeg, png or gif', async () => {
    await setup();
    const input = screen.getByLabelText('プロフィールアイコンの画像ファイル');
    expect(input).toHaveAttribute('accept', '.jpg,.jpeg,.png,.gif');

    await userEvent.setup({ applyAccept: false }).upload(input, imageFile('doc.pdf', 10, 'application/pdf'));

    expect(await screen.findByRole('alert')).toHaveTextContent(IMAGE_MESSAGES.type);
  });

  it('uploads an icon as type=icon, previews it and says it was registered', async () => {
    const createObjectURL = vi.fn(() => 'blob:preview');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const types: Array<string | null> = [];
    server.use(
      http.post(apiUrl('/user/set/uploadfile'), ({ request }) => {
        types.push(new URL(request.url).searchParams.get('type'));
        return HttpResponse.json({ data: { uploaded: { id: 9, url: 'https://cdn.example.jp/new.png', s3Path: 'a/b' } } });
      }),
    );
    const { user } = await setup();

    await user.upload(screen.getByLabelText('プロフィールアイコンの画像ファイル'), imageFile('me.png', 2048));

    expect(await screen.findByText('プロフィールアイコンを登録しました。')).toBeInTheDocument();
    expect(types).toEqual(['icon']);
    expect(screen.getByRole('img', { name: 'プロフィールアイコン' })).toHaveAttribute('src', 'blob:preview');
  });

  it('shows the server message of a refused upload', async () => {
    server.use(
      http.post(apiUrl('/user/set/uploadfile'), () =>
        HttpResponse.json({ error: 'invalid_upload', message: IMAGE_MESSAGES.type }, { status: 400 }),
      ),
    );
    const { user } = await setup();

    await user.upload(screen.getByLabelText('プロフィールアイコンの画像ファイル'), imageFile('fake.png', 100));

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(IMAGE_MESSAGES.type));
  });
});
