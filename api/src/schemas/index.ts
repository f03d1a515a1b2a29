// Every named ($id) schema of the API, in one list: plugins/shared-schemas.ts registers them at the
// root, so any route subtree can $ref them and the OpenAPI document lists each once.
import { Author, Book, Copy, StockMovement } from './backoffice-catalog.ts';
import { CartItem } from './cart.ts';
import { AuthorPage, BookCard, BookDetail, BookType } from './catalog.ts';
import { DeadLetter } from './mail.ts';
import { BackofficeOrder, ClientOrder } from './orders.ts';
import { ClientInfo, ClientRow, EmployeeRow, OwnSession } from './people.ts';
import { BackofficeReview, MyReview, Review, ReviewPage } from './reviews.ts';
import { AuditEntry, AuditPage, CategoryUnits, ImportJobView, LowStockCopy, LowStockPage, SalesDay, StatusCount } from './staff.ts';
import { ClientNotice, WishlistBook } from './wishlist.ts';

export const namedSchemas = [
  BookCard,
  BookDetail,
  BookType,
  AuthorPage,
  CartItem,
  ClientInfo,
  ClientOrder,
  ClientRow,
  EmployeeRow,
  OwnSession,
  Author,
  Book,
  Copy,
  StockMovement,
  BackofficeOrder,
  Review,
  ReviewPage,
  MyReview,
  BackofficeReview,
  WishlistBook,
  ClientNotice,
  SalesDay,
  CategoryUnits,
  StatusCount,
  AuditEntry,
  AuditPage,
  LowStockCopy,
  LowStockPage,
  ImportJobView,
  DeadLetter,
];
