/*
 * The mutators' own build of the LZMA SDK (Debian lzma-dev's public-domain
 * sources, compiled from where the package installs them, never copied):
 * every external name gets the prefix mcm_, so this copy can be compiled
 * without coverage instrumentation and sit in the same fuzz binary as the
 * validator's instrumented mc_lzma_dec. Otherwise the mutator's own
 * decoding and re-encoding would run through the comparison hooks (half of
 * an E3D _sa target's time) and feed libFuzzer's comparison tables.
 * Include before LzmaDec.h / LzmaEnc.h.
 */
#ifndef MCM_LZMA_H
#define MCM_LZMA_H
#define Bt3Zip_MatchFinder_GetMatches mcm_Bt3Zip_MatchFinder_GetMatches
#define Bt3Zip_MatchFinder_Skip mcm_Bt3Zip_MatchFinder_Skip
#define GetMatchesSpec1 mcm_GetMatchesSpec1
#define Hc3Zip_MatchFinder_GetMatches mcm_Hc3Zip_MatchFinder_GetMatches
#define Hc3Zip_MatchFinder_Skip mcm_Hc3Zip_MatchFinder_Skip
#define LzmaDec_Allocate mcm_LzmaDec_Allocate
#define LzmaDec_AllocateProbs mcm_LzmaDec_AllocateProbs
#define LzmaDec_DecodeToBuf mcm_LzmaDec_DecodeToBuf
#define LzmaDec_DecodeToDic mcm_LzmaDec_DecodeToDic
#define LzmaDec_Free mcm_LzmaDec_Free
#define LzmaDec_FreeProbs mcm_LzmaDec_FreeProbs
#define LzmaDec_Init mcm_LzmaDec_Init
#define LzmaDec_InitDicAndState mcm_LzmaDec_InitDicAndState
#define LzmaDecode mcm_LzmaDecode
#define LzmaEncProps_GetDictSize mcm_LzmaEncProps_GetDictSize
#define LzmaEncProps_Init mcm_LzmaEncProps_Init
#define LzmaEncProps_Normalize mcm_LzmaEncProps_Normalize
#define LzmaEnc_CodeOneMemBlock mcm_LzmaEnc_CodeOneMemBlock
#define LzmaEnc_Construct mcm_LzmaEnc_Construct
#define LzmaEnc_Create mcm_LzmaEnc_Create
#define LzmaEnc_Destroy mcm_LzmaEnc_Destroy
#define LzmaEnc_Destruct mcm_LzmaEnc_Destruct
#define LzmaEnc_Encode mcm_LzmaEnc_Encode
#define LzmaEnc_FastPosInit mcm_LzmaEnc_FastPosInit
#define LzmaEnc_Finish mcm_LzmaEnc_Finish
#define LzmaEnc_FreeLits mcm_LzmaEnc_FreeLits
#define LzmaEnc_GetCurBuf mcm_LzmaEnc_GetCurBuf
#define LzmaEnc_GetNumAvailableBytes mcm_LzmaEnc_GetNumAvailableBytes
#define LzmaEnc_Init mcm_LzmaEnc_Init
#define LzmaEnc_InitPriceTables mcm_LzmaEnc_InitPriceTables
#define LzmaEnc_InitPrices mcm_LzmaEnc_InitPrices
#define LzmaEnc_MemEncode mcm_LzmaEnc_MemEncode
#define LzmaEnc_MemPrepare mcm_LzmaEnc_MemPrepare
#define LzmaEnc_PrepareForLzma2 mcm_LzmaEnc_PrepareForLzma2
#define LzmaEnc_RestoreState mcm_LzmaEnc_RestoreState
#define LzmaEnc_SaveState mcm_LzmaEnc_SaveState
#define LzmaEnc_SetProps mcm_LzmaEnc_SetProps
#define LzmaEnc_WriteProperties mcm_LzmaEnc_WriteProperties
#define LzmaEncode mcm_LzmaEncode
#define LzmaProps_Decode mcm_LzmaProps_Decode
#define MatchFinder_Construct mcm_MatchFinder_Construct
#define MatchFinder_Create mcm_MatchFinder_Create
#define MatchFinder_CreateVTable mcm_MatchFinder_CreateVTable
#define MatchFinder_Free mcm_MatchFinder_Free
#define MatchFinder_GetIndexByte mcm_MatchFinder_GetIndexByte
#define MatchFinder_GetNumAvailableBytes mcm_MatchFinder_GetNumAvailableBytes
#define MatchFinder_GetPointerToCurrentPos mcm_MatchFinder_GetPointerToCurrentPos
#define MatchFinder_Init mcm_MatchFinder_Init
#define MatchFinder_MoveBlock mcm_MatchFinder_MoveBlock
#define MatchFinder_NeedMove mcm_MatchFinder_NeedMove
#define MatchFinder_Normalize3 mcm_MatchFinder_Normalize3
#define MatchFinder_ReadIfRequired mcm_MatchFinder_ReadIfRequired
#define MatchFinder_ReduceOffsets mcm_MatchFinder_ReduceOffsets
#endif
