// POST /api/public/contact: anyone may write to the shop (spec 2.7).
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const sendMessage = (body: BodyOf<'sendContactMessage'>) => unwrap(api.POST('/api/public/contact', { body }));

/** Nothing cached changes: only the back-office reads the messages, and it fetches them fresh. */
export const useSendMessage = () => useMutation({ mutationFn: sendMessage });
