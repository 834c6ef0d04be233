import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { LoginRequiredModal } from './LoginRequiredModal';

const renderModal = (onClose = vi.fn()) =>
  renderWithProviders(
    <Routes>
      <Route path="/" element={<LoginRequiredModal title="お気に入り登録" onClose={onClose} />} />
      <Route path="/login/" element={<h1>ログイン画面</h1>} />
      <Route path="/signup/" element={<h1>登録画面</h1>} />
    </Routes>,
  );

describe('LoginRequiredModal', () => {
  it('reads "{title}にはログインが必要です。" in an accessible dialog', () => {
    renderModal();

    const dialog = screen.getByRole('dialog', { name: 'ログインが必要です' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveTextContent('お気に入り登録にはログインが必要です。');
  });

  it('goes to the login page', async () => {
    const user = userEvent.setup();
    renderModal();

    await user.click(screen.getByRole('button', { name: 'ログイン' }));

    expect(screen.getByRole('heading', { name: 'ログイン画面' })).toBeInTheDocument();
  });

  it('goes to the signup page', async () => {
    const user = userEvent.setup();
    renderModal();

    await user.click(screen.getByRole('button', { name: '新規会員登録' }));

    expect(screen.getByRole('heading', { name: '登録画面' })).toBeInTheDocument();
  });

  it('closes on Escape', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderModal(onClose);

    await user.keyboard('{Escape}');

    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
