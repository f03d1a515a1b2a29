// Money in whole cents: the rule is @bookshop/rules' (the cart page totals with it too).
export * from '@bookshop/rules/money';
