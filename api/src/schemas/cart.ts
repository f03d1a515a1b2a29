import { Type } from 'typebox';
import { ImageUrl } from './common.ts';

export const CartItem = Type.Object(
  {
    id: Type.Integer(),
    productId: Type.Integer(),
    name: Type.String(),
    imageUrl: ImageUrl,
    totalPrice: Type.Number({ description: 'Unit price' }),
    bookCopyQuantity: Type.Integer({ description: 'Stock' }),
    totalQuantity: Type.Integer({ description: 'Quantity in the cart' }),
    isAvailable: Type.Boolean({
      description: 'False once the copy is withdrawn from sale: the line cannot be ordered, only removed (an addition to spec 3)',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'CartItem' },
);
